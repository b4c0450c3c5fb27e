package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quanta.cli.QuantaMain;
import io.quanta.cli.metrics.MetricsConfigSection;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.ConfigSections;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Static checks of compose/docker-compose.yml against the code, since no Docker engine runs here: images are built
 * from a Dockerfile of this repository or pinned, environment variables are settings the code knows with valid
 * values, commands are real subcommands, addresses, ports, cells and topic names agree.
 */
class ComposeFileTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path COMPOSE = REPO.resolve("compose/docker-compose.yml");
    private static final Pattern PINNED = Pattern.compile("[a-z0-9./_-]+(:[A-Za-z0-9._-]*\\d[A-Za-z0-9._-]*|@sha256:[0-9a-f]{64})");

    private static JsonNode services;

    @BeforeAll
    static void parse() throws IOException {
        services = new ObjectMapper(new YAMLFactory()).readTree(COMPOSE.toFile()).get("services");
    }

    private static Map<String, JsonNode> quantaServices() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        services.fields().forEachRemaining(e -> {
            if (e.getValue().has("build")) {
                out.put(e.getKey(), e.getValue());
            }
        });
        return out;
    }

    private static Map<String, String> env(JsonNode service) {
        Map<String, String> env = new LinkedHashMap<>();
        JsonNode node = service.get("environment");
        if (node != null) {
            node.fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        }
        return env;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    @Test
    void shouldBuildEveryQuantaImageFromDockerfileInRepoWhenServiceHasBuild() {
        assertThat(quantaServices()).containsKeys("topics", "scheduler", "node-1", "node-2");
        quantaServices().forEach((name, service) -> {
            Path context = COMPOSE.getParent().resolve(service.get("build").get("context").asText()).normalize();
            Path dockerfile = context.resolve(service.get("build").get("dockerfile").asText());
            assertThat(dockerfile).as("Dockerfile of service " + name).isRegularFile();
            assertThat(context).as("build context of " + name).isEqualTo(REPO);
        });
    }

    @Test
    void shouldPinEveryPublicImageWhenServiceHasNoBuild() throws IOException {
        services.fields().forEachRemaining(e -> {
            if (!e.getValue().has("build")) {
                String image = e.getValue().get("image").asText();
                assertThat(image).as("image of " + e.getKey()).matches(PINNED).doesNotEndWith(":latest");
            }
        });
        for (String line : Files.readAllLines(REPO.resolve("docker/Dockerfile"))) {
            if (line.startsWith("FROM ")) {
                assertThat(line.split("\\s+")[1]).as("base image in docker/Dockerfile").matches(PINNED);
            }
        }
    }

    @Test
    void shouldRunKafkaOfTheClientVersionWhenComposeStartsBroker() {
        assertThat(services.get("kafka").get("image").asText()).isEqualTo("apache/kafka:" + AppInfoParser.getVersion());
    }

    @Test
    void shouldUseOnlyKnownSettingsWithValidValuesWhenConfiguringQuantaServices() {
        ConfigSections sections = ConfigSections.discover();
        quantaServices().forEach((name, service) -> {
            Map<String, String> env = env(service);
            for (String variable : env.keySet()) {
                assertThat(variable).as("environment of " + name).startsWith(QuantaConfig.ENV_PREFIX);
                String key = variable.substring(QuantaConfig.ENV_PREFIX.length()).toLowerCase(Locale.ROOT)
                        .replace('_', '.');
                assertThat(sections.key(key).isPresent() || sections.isKafkaClientKey(key))
                        .as(variable + " of " + name + " (key " + key + ") is a setting the code knows").isTrue();
            }
            QuantaConfig config = QuantaConfig.builder().environment(env).build();
            assertThat(config.bootstrapServers()).isNotBlank();
        });
    }

    @Test
    void shouldRunRealSubcommandsWhenStartingQuantaServices() {
        CommandLine quanta = QuantaMain.commandLine();
        quantaServices().forEach((name, service) -> {
            List<String> command = texts(service.get("command"));
            if (command.isEmpty()) {
                return;
            }
            CommandLine sub = quanta.getSubcommands().get(command.get(0));
            assertThat(sub).as("subcommand '" + command.get(0) + "' of service " + name).isNotNull();
            if (command.size() > 1 && !command.get(1).startsWith("-")) {
                assertThat(sub.getSubcommands()).as("'" + String.join(" ", command) + "'").containsKey(command.get(1));
            }
        });
    }

    @Test
    void shouldPointAtComposeBrokerAndRegistryWhenServicesConnect() {
        String advertised = env(services.get("kafka")).get("KAFKA_ADVERTISED_LISTENERS");
        String registryListener = env(services.get("schema-registry")).get("SCHEMA_REGISTRY_LISTENERS");
        int registryPort = URI.create(registryListener).getPort();
        quantaServices().forEach((name, service) -> {
            Map<String, String> env = env(service);
            String bootstrap = env.get("QUANTA_BOOTSTRAP_SERVERS");
            assertThat(bootstrap).as("bootstrap of " + name).isNotNull();
            assertThat(advertised).as("kafka advertises " + bootstrap).contains("//" + bootstrap);
            String registry = env.get("QUANTA_SCHEMA_REGISTRY_URL");
            if (registry != null) {
                URI uri = URI.create(registry);
                assertThat(services.has(uri.getHost())).as("registry host " + uri.getHost() + " is a service").isTrue();
                assertThat(uri.getPort()).as("registry port of " + name).isEqualTo(registryPort);
            }
        });
        assertThat(env(services.get("scheduler"))).containsKey("QUANTA_SCHEMA_REGISTRY_URL");
    }

    @Test
    void shouldPublishAndProbeThePortsTheCodeServesWhenServicesRunServers() {
        QuantaConfig scheduler = QuantaConfig.builder().environment(env(services.get("scheduler"))).build();
        Set<String> schedulerPorts = containerPorts(services.get("scheduler"));
        assertThat(schedulerPorts).contains(Integer.toString(scheduler.getInt(SchedulerConfigSection.STATUS_PORT)));
        quantaServices().forEach((name, service) -> {
            if (!service.has("healthcheck")) {
                return;
            }
            QuantaConfig config = QuantaConfig.builder().environment(env(service)).build();
            String port = Integer.toString(config.getInt(MetricsConfigSection.PORT));
            assertThat(config.getString(MetricsConfigSection.HOST)).as("metrics of " + name + " reachable")
                    .isEqualTo("0.0.0.0");
            assertThat(containerPorts(service)).as("published ports of " + name).contains(port);
            assertThat(String.join(" ", texts(service.get("healthcheck").get("test"))))
                    .as("healthcheck of " + name).contains("/" + port, "/health");
        });
    }

    @Test
    void shouldPublishTheStatusApiOnlyOnLoopbackUnlessItHasATokenWhenComposePublishesIt() throws IOException {
        JsonNode scheduler = services.get("scheduler");
        QuantaConfig config = QuantaConfig.builder().environment(env(scheduler)).build();
        String statusPort = Integer.toString(config.getInt(SchedulerConfigSection.STATUS_PORT));
        boolean token = config.getString(SchedulerConfigSection.STATUS_TOKEN_FILE) != null;
        List<String> published = new ArrayList<>();
        for (JsonNode mapping : scheduler.path("ports")) {
            assertThat(mapping.isTextual()).as("short port syntax (HOST_IP:HOST:CONTAINER) " + mapping).isTrue();
            String[] parts = mapping.asText().split(":");
            if (parts[parts.length - 1].equals(statusPort)) {
                published.add(mapping.asText());
                String hostIp = parts.length == 3 ? parts[0] : "0.0.0.0";
                assertThat(token || hostIp.equals("127.0.0.1"))
                        .as("the status API (" + mapping.asText() + ") is published on " + hostIp + " without "
                                + "scheduler.status.token.file").isTrue();
            }
        }
        assertThat(published).as("the status API's port mapping").hasSize(1);
        assertThat(Files.readString(REPO.resolve("compose/README.md"))).as("compose/README.md gives the address")
                .contains(token ? "https://" : "http://127.0.0.1:" + statusPort);
    }

    @Test
    void shouldPutEveryNodeInACellTheSchedulerRoutesToWhenNodesJoin() {
        QuantaConfig scheduler = QuantaConfig.builder().environment(env(services.get("scheduler"))).build();
        String defaultCell = scheduler.getString(SchedulerConfigSection.DEFAULT_CELL);
        Set<String> ids = new TreeSet<>();
        quantaServices().forEach((name, service) -> {
            Map<String, String> env = env(service);
            if ("node".equals(texts(service.get("command")).stream().findFirst().orElse(""))) {
                assertThat(env.get("QUANTA_NODE_CELL")).as("cell of " + name).isEqualTo(defaultCell);
                assertThat(ids.add(env.get("QUANTA_NODE_ID"))).as("node id of " + name + " is unique").isTrue();
            }
        });
        assertThat(ids).hasSize(2);
    }

    @Test
    void shouldNameOnlyCatalogueTopicsWhenComposeMentionsTopics() throws IOException {
        TopicCatalogue catalogue = TopicCatalogue.forAdministration(QuantaConfig.of(Map.of()));
        Set<String> known = new TreeSet<>();
        for (QuantaTopic topic : QuantaTopic.values()) {
            known.add(catalogue.spec(topic).name());
        }
        String text = Files.readString(COMPOSE) + Files.readString(REPO.resolve("compose/README.md"));
        Matcher m = Pattern.compile("\\bquanta\\.[a-z]+\\.[a-z]+\\b").matcher(text);
        int found = 0;
        while (m.find()) {
            assertThat(known).as("topic named in compose/").contains(m.group());
            found++;
        }
        assertThat(found).as("compose/README.md names the topics it uses").isPositive();
    }

    @Test
    void shouldWaitForHealthyOrCompletedDependenciesWhenStarting() {
        services.fields().forEachRemaining(e -> {
            JsonNode depends = e.getValue().get("depends_on");
            if (depends == null) {
                return;
            }
            depends.fields().forEachRemaining(d -> {
                String condition = d.getValue().get("condition").asText();
                assertThat(condition).as(e.getKey() + " waits for " + d.getKey())
                        .isIn("service_healthy", "service_completed_successfully");
                if (condition.equals("service_healthy")) {
                    assertThat(services.get(d.getKey()).has("healthcheck")).as(d.getKey() + " has a healthcheck")
                            .isTrue();
                }
            });
        });
    }

    private static Set<String> containerPorts(JsonNode service) {
        Set<String> ports = new TreeSet<>();
        for (String mapping : texts(service.get("ports"))) {
            ports.add(mapping.substring(mapping.lastIndexOf(':') + 1));
        }
        return ports;
    }
}
