package io.quanta.topics.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.topics.TopicCatalogue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuantaConfigTest {

    @TempDir
    Path dir;

    @Test
    void shouldApplyFileThenEnvironmentThenOverridesWhenKeysCollide() throws IOException {
        Path file = dir.resolve("quanta.properties");
        Files.writeString(file, """
                bootstrap.servers=file:9092
                topic.inbox.partitions=2
                topic.status.name=from-file
                """);

        QuantaConfig config = QuantaConfig.builder().sections(TopicCatalogue.configSections()).propertiesFile(file)
                .environment(Map.of("QUANTA_TOPIC_INBOX_PARTITIONS", "5", "QUANTA_BOOTSTRAP_SERVERS", "env:9092"))
                .overrides(Map.of("bootstrap.servers", "flag:9092"))
                .build();

        assertThat(config.bootstrapServers()).isEqualTo("flag:9092");
        assertThat(config.getInt("topic.inbox.partitions")).isEqualTo(5);
        assertThat(config.getString("topic.status.name")).isEqualTo("from-file");
        assertThat(config.origin("topic.inbox.partitions"))
                .isEqualTo("environment variable QUANTA_TOPIC_INBOX_PARTITIONS");
        assertThat(config.origin("topic.status.name")).startsWith("file ");
    }

    @Test
    void shouldUseDocumentedDefaultsWhenNothingIsSet() {
        QuantaConfig config = QuantaConfig.builder().sections(TopicCatalogue.configSections()).build();

        assertThat(config.bootstrapServers()).isEqualTo("localhost:9092");
        assertThat(config.registryUrl()).isEmpty();
        assertThat(config.getString("topic.inbox.name")).isEqualTo("quanta.cells.inbox");
        assertThat(config.getLong("topic.inbox.retention.ms")).isEqualTo(-1L);
    }

    @Test
    void shouldFailNamingKeyAndNeighboursWhenQuantaKeyIsUnknown() {
        assertThatThrownBy(() -> QuantaConfig.builder().sections(TopicCatalogue.configSections())
                .environment(Map.of("QUANTA_TOPIC_INBOX_PARTITONS", "3")).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("topic.inbox.partitons")
                .hasMessageContaining("QUANTA_TOPIC_INBOX_PARTITONS")
                .hasMessageContaining("topic.inbox.partitions");
    }

    @Test
    void shouldFailNamingKeyAndAllowedValuesWhenValueIsInvalid() {
        assertThatThrownBy(() -> config(Map.of("topic.inbox.partitions", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("topic.inbox.partitions")
                .hasMessageContaining("at least 1")
                .hasMessageContaining("override");
        assertThatThrownBy(() -> config(Map.of("schema.registry.auto.register", "maybe")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("schema.registry.auto.register");
    }

    @Test
    void shouldFailNamingAllowedValuesWhenSectionUsesValidString() {
        ConfigSection section = section("scheduler", new ConfigDef().define("scheduler.policy", ConfigDef.Type.STRING,
                "fifo", ConfigDef.ValidString.in("fifo", "tiresias-las"), ConfigDef.Importance.HIGH, "Policy."));

        assertThatThrownBy(() -> QuantaConfig.builder().sections(TopicCatalogue.configSections().with(section))
                .overrides(Map.of("scheduler.policy", "lottery")).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("scheduler.policy")
                .hasMessageContaining("fifo")
                .hasMessageContaining("tiresias-las");
    }

    @Test
    void shouldPassKafkaClientSettingsThroughUnchanged() {
        QuantaConfig config = config(Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                        + "username=\"u\" password=\"p\";",
                "ssl.truststore.location", "/etc/ts.jks", "bootstrap.servers", "b:9093"));

        assertThat(config.kafkaClientProperties())
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("ssl.truststore.location", "/etc/ts.jks")
                .containsEntry("bootstrap.servers", "b:9093")
                .containsKey("sasl.jaas.config")
                .doesNotContainKey("topic.inbox.name");
    }

    @Test
    void shouldTakeKafkaSettingsButIgnoreUnrelatedVariablesFromEnvironment() {
        QuantaConfig config = QuantaConfig.builder().sections(TopicCatalogue.configSections())
                .environment(Map.of("QUANTA_SECURITY_PROTOCOL", "SSL", "QUANTA_HOME", "/opt/quanta", "PATH", "/bin"))
                .build();

        assertThat(config.kafkaClientProperties()).containsEntry("security.protocol", "SSL")
                .doesNotContainKey("home");
    }

    @Test
    void shouldMaskEverySecretWhenRendered() {
        QuantaConfig config = config(Map.of("schema.registry.basic.auth.user.info", "alice:registry-secret",
                "ssl.truststore.password", "truststore-secret",
                "sasl.jaas.config", "PlainLoginModule required username=\"u\" password=\"jaas-secret\";",
                "security.protocol", "SASL_SSL"));

        String rendered = config.toString();

        assertThat(rendered).doesNotContain("registry-secret", "truststore-secret", "jaas-secret")
                .contains("schema.registry.basic.auth.user.info = [hidden]")
                .contains("ssl.truststore.password = [hidden]")
                .contains("sasl.jaas.config = [hidden]")
                .contains("security.protocol = SASL_SSL");
        assertThat(config.registryUserInfo()).hasValueSatisfying(p -> assertThat(p.value())
                .isEqualTo("alice:registry-secret"));
    }

    @Test
    void shouldRevalidateWhenOverridden() {
        QuantaConfig config = config(Map.of()).withOverrides(Map.of("schema.registry.url", "http://r:8081"));

        assertThat(config.requireRegistryUrl()).isEqualTo("http://r:8081");
        assertThatThrownBy(() -> config.withOverrides(Map.of("topic.bogus", "x")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("topic.bogus");
    }

    @Test
    void shouldNameKeyWhenRegistryUrlIsRequiredButMissing() {
        assertThatThrownBy(() -> config(Map.of()).requireRegistryUrl())
                .isInstanceOf(ConfigException.class).hasMessageContaining("schema.registry.url");
    }

    @Test
    void shouldFailWhenFileIsMissing() {
        assertThatThrownBy(() -> QuantaConfig.builder().propertiesFile(dir.resolve("nope.properties")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("nope.properties");
    }

    @Test
    void shouldRefuseTwoSectionsDefiningTheSameKey() {
        ConfigSection clash = section("clash", new ConfigDef().define("bootstrap.servers", ConfigDef.Type.STRING,
                "x", ConfigDef.Importance.LOW, "dup"));

        assertThatThrownBy(() -> TopicCatalogue.configSections().with(clash))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bootstrap.servers").hasMessageContaining("clash");
    }

    @Test
    void shouldFindCoreSectionsOnClassPathAndListEveryKeyInReference() {
        ConfigSections sections = ConfigSections.discover();

        assertThat(sections.sections()).extracting(ConfigSection::name).contains("connection", "topics");
        String reference = ConfigReference.markdown(sections);
        assertThat(sections.keyNames()).isNotEmpty().allSatisfy(key -> assertThat(reference).contains("`" + key + "`"));
        assertThat(reference).contains("## connection").contains("## topics");
    }

    private static QuantaConfig config(Map<String, String> values) {
        return QuantaConfig.builder().sections(TopicCatalogue.configSections()).overrides(values).build();
    }

    private static ConfigSection section(String name, ConfigDef def) {
        return new ConfigSection() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return "test section";
            }

            @Override
            public ConfigDef definition() {
                return def;
            }

            @Override
            public Set<String> ownedPrefixes() {
                return Set.of(name + ".");
            }
        };
    }
}
