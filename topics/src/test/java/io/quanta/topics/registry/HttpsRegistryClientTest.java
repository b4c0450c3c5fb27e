package io.quanta.topics.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.schemas.JobTelemetry;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry client over https with a private CA's certificate, configured by the registry trust-store keys. */
class HttpsRegistryClientTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;

    private static FakeRegistryServer server;
    private static Path trustStore;

    @BeforeAll
    static void start() throws Exception {
        Path keyStore = dir.resolve("server.p12");
        keytool("-genkeypair", "-alias", "registry", "-keyalg", "EC", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keyStore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        trustStore = keyStore; // the JDK trusts the certificate of a key entry too: one keytool run is enough
        server = new FakeRegistryServer(serverContext(keyStore));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldTalkHttpsWhenTrustStoreIsConfigured() {
        QuantaConfig config = QuantaConfig.builder().sections(TopicCatalogue.configSections()).overrides(Map.of(
                "schema.registry.url", server.url(),
                "schema.registry.ssl.truststore.location", trustStore.toString(),
                "schema.registry.ssl.truststore.password", PASSWORD)).build();
        server.answer(200, "{\"id\": 12}");

        int id = new HttpSchemaRegistryClient(RegistryClientSettings.from(config))
                .register("s-value", JobTelemetry.getClassSchema());

        assertThat(id).isEqualTo(12);
        assertThat(config.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void shouldRefuseUntrustedCertificateWhenNoTrustStoreIsConfigured() {
        HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(RegistryClientSettings.of(server.url())
                .withRetries(0, Duration.ZERO, Duration.ZERO));

        assertThatThrownBy(() -> client.schemaById(1))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(-1))
                .hasMessageContaining("unreachable");
    }

    @Test
    void shouldNameFileWhenTrustStoreCannotBeRead() {
        TrustStore missing = new TrustStore(dir.resolve("missing.p12"), Optional.of(new Password("x")), "PKCS12");

        assertThatThrownBy(() -> new HttpSchemaRegistryClient(RegistryClientSettings.of(server.url())
                .withTrustStore(missing)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("missing.p12");
    }

    private static javax.net.ssl.SSLContext serverContext(Path keyStore) throws Exception {
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        try (var in = java.nio.file.Files.newInputStream(keyStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        javax.net.ssl.KeyManagerFactory keys = javax.net.ssl.KeyManagerFactory.getInstance(
                javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("keytool %s: %s", args[0], output).isZero();
    }
}
