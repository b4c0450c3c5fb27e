package io.quanta.topics.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quanta.schemas.JobTelemetry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpSchemaRegistryClientTest {

    private static final Schema SCHEMA = JobTelemetry.getClassSchema();
    private static final String SUBJECT = "quanta.jobs.telemetry-value";

    private FakeRegistryServer server;
    private HttpSchemaRegistryClient client;

    @BeforeEach
    void start() throws IOException {
        server = new FakeRegistryServer();
        client = new HttpSchemaRegistryClient(RegistryClientSettings.of(server.url() + "/apis/ccompat/v7")
                .withRetries(3, Duration.ofMillis(1), Duration.ofMillis(4)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void shouldPostSchemaToSubjectVersionsWhenRegistering() throws IOException {
        server.answer(200, "{\"id\": 17}");

        assertThat(client.register(SUBJECT, SCHEMA)).isEqualTo(17);

        FakeRegistryServer.Request request = server.requests().getFirst();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/apis/ccompat/v7/subjects/quanta.jobs.telemetry-value/versions");
        assertThat(request.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        String sent = new ObjectMapper().readTree(request.body()).get("schema").asText();
        assertThat(new Schema.Parser().parse(sent)).isEqualTo(SCHEMA);
    }

    @Test
    void shouldCacheIdsAndSchemasWhenAskedTwice() {
        server.answer(200, "{\"id\": 5}");

        client.register(SUBJECT, SCHEMA);
        client.register(SUBJECT, SCHEMA);
        Schema byId = client.schemaById(5);

        assertThat(byId).isEqualTo(SCHEMA);
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void shouldFetchSchemaByIdWhenNotCached() {
        server.answer(200, "{\"schema\": " + quote(SCHEMA.toString()) + "}");

        assertThat(client.schemaById(3)).isEqualTo(SCHEMA);
        assertThat(client.schemaById(3)).isEqualTo(SCHEMA);

        assertThat(server.requests()).extracting(FakeRegistryServer.Request::path)
                .containsExactly("/apis/ccompat/v7/schemas/ids/3");
    }

    @Test
    void shouldRetryWhenRegistryAnswersServerErrors() {
        server.answer(503, "busy").answer(500, "{\"error_code\":50001,\"message\":\"store\"}").answer(200, "{\"id\":9}");

        assertThat(client.register(SUBJECT, SCHEMA)).isEqualTo(9);
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void shouldGiveUpWithClearMessageWhenServerErrorsPersist() {
        for (int i = 0; i < 4; i++) {
            server.answer(503, "{\"error_code\":50302,\"message\":\"down for maintenance\"}");
        }

        assertThatThrownBy(() -> client.register(SUBJECT, SCHEMA))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.isClientError()).isFalse();
                })
                .hasMessageContaining("4 attempts")
                .hasMessageContaining("down for maintenance");
        assertThat(server.requests()).hasSize(4);
    }

    @Test
    void shouldFailAtOnceNamingSubjectWhenRegistryRefusesIncompatibleSchema() {
        server.answer(409, "{\"error_code\":409,\"message\":\"Schema being registered is incompatible\"}");

        assertThatThrownBy(() -> client.register(SUBJECT, SCHEMA))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.isIncompatible()).isTrue();
                    assertThat(e.subject()).contains(SUBJECT);
                    assertThat(e.registryMessage()).isEqualTo("Schema being registered is incompatible");
                })
                .hasMessageContaining(SUBJECT)
                .hasMessageContaining("409")
                .hasMessageContaining("Schema being registered is incompatible");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void shouldRetryWhenConnectionIsRefused() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        HttpSchemaRegistryClient unreachable = new HttpSchemaRegistryClient(RegistryClientSettings
                .of("http://127.0.0.1:" + closedPort).withRetries(2, Duration.ofMillis(1), Duration.ofMillis(1)));

        assertThatThrownBy(() -> unreachable.schemaById(1))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(-1))
                .hasMessageContaining("unreachable")
                .hasMessageContaining("3 attempts");
    }

    @Test
    void shouldSendBasicAuthWhenUserInfoConfigured() {
        HttpSchemaRegistryClient secured = new HttpSchemaRegistryClient(RegistryClientSettings.of(server.url())
                .withUserInfo("alice:s3cret"));
        server.answer(200, "{\"id\": 1}");

        secured.register(SUBJECT, SCHEMA);

        String expected = "Basic " + Base64.getEncoder().encodeToString("alice:s3cret".getBytes(StandardCharsets.UTF_8));
        assertThat(server.requests().getFirst().authorization()).isEqualTo(expected);
    }

    @Test
    void shouldParseLatestVersionWhenSubjectExists() {
        server.answer(200, "{\"subject\":\"" + SUBJECT + "\",\"id\":4,\"version\":2,\"schema\":"
                + quote(SCHEMA.toString()) + "}");

        RegisteredSchema latest = client.latest(SUBJECT);

        assertThat(latest).isEqualTo(new RegisteredSchema(SUBJECT, 4, 2, SCHEMA));
        assertThat(server.requests().getFirst().path())
                .isEqualTo("/apis/ccompat/v7/subjects/quanta.jobs.telemetry-value/versions/latest");
    }

    @Test
    void shouldReportCompatibilityFromRegistryAnswer() {
        server.answer(200, "{\"is_compatible\": false}").answer(404,
                "{\"error_code\":40401,\"message\":\"Subject not found\"}");

        assertThat(client.isCompatible(SUBJECT, SCHEMA)).isFalse();
        assertThat(client.isCompatible("new-subject", SCHEMA)).isTrue();
        assertThat(server.requests().getFirst().path())
                .isEqualTo("/apis/ccompat/v7/compatibility/subjects/quanta.jobs.telemetry-value/versions/latest");
    }

    @Test
    void shouldReportNotFoundWhenSchemaIdUnknown() {
        server.answer(404, "{\"error_code\":40403,\"message\":\"Schema 77 not found\"}");

        assertThatThrownBy(() -> client.schemaById(77))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.isNotFound()).isTrue();
                    assertThat(e.errorCode()).isEqualTo(40403);
                });
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
