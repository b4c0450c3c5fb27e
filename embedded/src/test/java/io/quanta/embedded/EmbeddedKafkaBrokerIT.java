package io.quanta.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.internals.Topic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plaintext embedded broker, as {@code quanta local} and the tests start it. */
class EmbeddedKafkaBrokerIT {

    /**
     * The coordinators' internal topics exist before the first client starts, fresh and on a kept directory (left to
     * the clients, several first lookups race to create them and the broker logs a warning for each loser), with the
     * configs the broker itself gives them (compacted: a deleting offsets topic would lose committed offsets).
     */
    @Test
    void shouldHaveCreatedTheCoordinatorTopicsWhenStarted(@TempDir Path dir) throws Exception {
        for (String start : List.of("a fresh start", "a restart on the kept directory")) {
            try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(dir).build().start();
                    Admin admin = Admin.create(new HashMap<String, Object>(broker.clientProperties("admin")))) {
                Set<String> internal = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
                assertThat(internal).as("after " + start)
                        .contains(Topic.GROUP_METADATA_TOPIC_NAME, Topic.TRANSACTION_STATE_TOPIC_NAME);
                assertThat(topicConfigs(admin, Topic.GROUP_METADATA_TOPIC_NAME)).containsEntry("cleanup.policy",
                        "compact").containsEntry("compression.type", "producer");
                assertThat(topicConfigs(admin, Topic.TRANSACTION_STATE_TOPIC_NAME)).containsEntry("cleanup.policy",
                        "compact").containsEntry("unclean.leader.election.enable", "false");
                assertThat(admin.describeTopics(List.of(Topic.GROUP_METADATA_TOPIC_NAME)).allTopicNames().get()
                        .get(Topic.GROUP_METADATA_TOPIC_NAME).partitions()).hasSize(5);
            }
        }
    }

    private static Map<String, String> topicConfigs(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Map<String, String> configs = new HashMap<>();
        for (ConfigEntry entry : admin.describeConfigs(List.of(resource)).all().get().get(resource).entries()) {
            configs.put(entry.name(), entry.value());
        }
        return configs;
    }
}
