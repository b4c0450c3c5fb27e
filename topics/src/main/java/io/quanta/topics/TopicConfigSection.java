package io.quanta.topics;

import io.quanta.topics.config.ConfigSection;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** Names, partition counts, retention and replication of the Quanta topics ({@code topic.<id>.*}). */
public final class TopicConfigSection implements ConfigSection {

    public static final String REPLICATION_FACTOR = "topic.replication.factor";

    @Override
    public String name() {
        return "topics";
    }

    @Override
    public String description() {
        return "Names, partitions and retention of the Quanta topics (used by `quanta topics apply` and every client).";
    }

    @Override
    public Set<String> ownedPrefixes() {
        return Set.of("topic.", "topics.");
    }

    @Override
    public ConfigDef definition() {
        ConfigDef def = new ConfigDef().define(REPLICATION_FACTOR, Type.SHORT, (short) -1, replicationFactor(),
                Importance.MEDIUM, "Replication factor of created topics; -1 uses the broker's default.replication.factor.");
        for (QuantaTopic topic : QuantaTopic.values()) {
            def.define(topic.nameKey(), Type.STRING, topic.defaultName(), new ConfigDef.NonEmptyString(),
                    Importance.MEDIUM, "Name of the " + topic.id() + " topic.");
            def.define(topic.partitionsKey(), Type.INT, topic.defaultPartitions(), Range.atLeast(1),
                    Importance.MEDIUM, "Partition count of the " + topic.id() + " topic.");
            if (topic.cleanupPolicy() == CleanupPolicy.DELETE) {
                def.define(topic.retentionKey(), Type.LONG, topic.defaultRetentionMs(), Range.atLeast(-1),
                        Importance.LOW, "Retention of the " + topic.id() + " topic in ms; -1 keeps records forever.");
            }
        }
        return def;
    }

    private static ConfigDef.Validator replicationFactor() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                short v = (Short) value;
                if (v != -1 && v < 1) {
                    throw new ConfigException(name, value, "must be -1 (broker default) or at least 1");
                }
            }

            @Override
            public String toString() {
                return "-1 or [1,...]";
            }
        };
    }
}
