package io.quanta.streams.status;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.testing.SchedulerDriver;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The status API's bearer token and TLS: 401 without the token, 200 with it, HTTPS, forwarding between instances. */
class StatusApiAuthTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "s3cr3t-t0ken-0123456789abcdef";
    private static final String PASSWORD = "store-password";

    @TempDir
    Path dir;
    private SchedulerDriver driver;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void runScenario() {
        driver = SchedulerDriver.withPolicy("fifo");
        driver.heartbeat(node("n1", SchedulerDriver.CELL, 2, 1, at(0)).build());
        driver.submit(job("running", 2).build(), at(1));
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private StatusApi start(StatusSecurity security, Optional<HostInfo> owner) {
        return StatusApi.start(new StatusQueries(new DriverStateAccess(driver.driver(), owner)),
                new InetSocketAddress("127.0.0.1", 0), () -> "RUNNING", RecentActivity.none(), security);
    }

    private static HttpResponse<String> get(HttpClient client, StatusApi api, String path, String authorization)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api.scheme() + "://127.0.0.1:"
                + api.address().getPort() + path)).timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private Path tokenFile(String content) throws IOException {
        return Files.writeString(dir.resolve("token-" + content.length()), content + "\n");
    }

    @Test
    void shouldRefuseRequestsWithoutOrWithAWrongTokenAndAnswerWithTheToken() throws Exception {
        StatusSecurity security = StatusSecurity.from(QuantaConfig.of(Map.of(SchedulerConfigSection.STATUS_TOKEN_FILE,
                tokenFile(TOKEN).toString())));
        try (StatusApi api = start(security, Optional.empty())) {
            HttpResponse<String> none = get(http, api, "/jobs/running", null);
            HttpResponse<String> wrong = get(http, api, "/jobs/running", "Bearer " + TOKEN + "x");
            HttpResponse<String> prefix = get(http, api, "/cells", "Bearer " + TOKEN.substring(0, 20));
            HttpResponse<String> basic = get(http, api, "/nodes", "Basic " + TOKEN);
            HttpResponse<String> right = get(http, api, "/jobs/running", "Bearer " + TOKEN);
            HttpResponse<String> lowerCase = get(http, api, "/cells", "bearer " + TOKEN);

            assertThat(none.statusCode()).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"quanta\"");
            assertThat(JSON.readTree(none.body()).get("error").asText()).contains("Authorization: Bearer");
            assertThat(none.body()).doesNotContain("running", TOKEN);
            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(wrong.headers().firstValue("WWW-Authenticate")).contains(
                    "Bearer realm=\"quanta\", error=\"invalid_token\"");
            assertThat(wrong.body()).doesNotContain(TOKEN);
            assertThat(prefix.statusCode()).isEqualTo(401);
            assertThat(basic.statusCode()).isEqualTo(401);
            assertThat(right.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(right.body()).get("state").asText()).isEqualTo("STARTING");
            assertThat(lowerCase.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void shouldAnswerHealthAndThePageWithoutTokenButNoDataWithoutIt() throws Exception {
        StatusSecurity security = StatusSecurity.of(Optional.of(TOKEN), Optional.empty(), Optional.empty());
        try (StatusApi api = start(security, Optional.empty())) {
            assertThat(get(http, api, "/health", null).statusCode()).isEqualTo(200);
            assertThat(get(http, api, "/dashboard", null).statusCode()).isEqualTo(200);
            assertThat(get(http, api, "/", null).statusCode()).isEqualTo(303);
            for (String path : List.of("/jobs", "/jobs?state=QUEUED", "/nodes", "/cells", "/cells/cell-0/summary",
                    "/cells/cell-0/jobs/running", "/jobs/running/timeline", "/deadletters", "/nope",
                    "/dashboard/x", "/health/x")) {
                assertThat(get(http, api, path, null).statusCode()).as(path).isEqualTo(401);
            }
        }
    }

    @Test
    void shouldServeHttpsWithTheKeyStoreAndForwardWithTheTokenToTheOwner() throws Exception {
        Path keyStore = keyStore(dir.resolve("status.p12"));
        QuantaConfig config = QuantaConfig.of(Map.of(SchedulerConfigSection.STATUS_TOKEN_FILE,
                tokenFile(TOKEN).toString(), SchedulerConfigSection.STATUS_TLS_KEYSTORE, keyStore.toString(),
                SchedulerConfigSection.STATUS_TLS_KEYSTORE_PASSWORD, PASSWORD));
        StatusSecurity security = StatusSecurity.from(config);
        HttpClient trusting = HttpClient.newBuilder().sslContext(security.clientContext().orElseThrow()).build();
        try (StatusApi owner = start(security, Optional.empty());
             SchedulerDriver empty = SchedulerDriver.withPolicy("fifo");
             StatusApi other = StatusApi.start(new StatusQueries(new DriverStateAccess(empty.driver(),
                     Optional.of(new HostInfo("127.0.0.1", owner.address().getPort())))),
                     new InetSocketAddress("127.0.0.1", 0), () -> "RUNNING", RecentActivity.none(), security)) {

            assertThat(owner.scheme()).isEqualTo("https");
            assertThat(get(trusting, owner, "/jobs/running", null).statusCode()).isEqualTo(401);
            assertThat(get(trusting, owner, "/jobs/running", "Bearer " + TOKEN).statusCode()).isEqualTo(200);
            HttpResponse<String> forwarded = get(trusting, other, "/jobs/running", "Bearer " + TOKEN);
            HttpResponse<String> gathered = get(trusting, other, "/jobs", "Bearer " + TOKEN);
            assertThat(forwarded.statusCode()).as(forwarded.body()).isEqualTo(200);
            assertThat(JSON.readTree(forwarded.body()).get("jobId").asText()).isEqualTo("running");
            assertThat(JSON.readTree(gathered.body()).findValuesAsText("jobId")).containsExactly("running");
            assertThat(get(trusting, other, "/jobs/running", null).statusCode()).isEqualTo(401);

            URI plain = URI.create("http://127.0.0.1:" + owner.address().getPort() + "/health");
            assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(plain).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString())).as("plain HTTP to the HTTPS port")
                    .isInstanceOf(IOException.class);
            URI untrusted = URI.create("https://127.0.0.1:" + owner.address().getPort() + "/health");
            assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(untrusted).timeout(Duration.ofSeconds(10))
                    .build(), HttpResponse.BodyHandlers.ofString())).as("a client that does not trust the certificate")
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void shouldRefuseTokenFilesThatHoldNoUsableTokenWithoutPrintingThem() throws IOException {
        Path shortToken = tokenFile("hunter2");
        Path spaces = Files.writeString(dir.resolve("spaces"), "two words that are long enough");

        assertThatThrownBy(() -> StatusSecurity.readToken(shortToken)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(SchedulerConfigSection.STATUS_TOKEN_FILE).hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> StatusSecurity.readToken(spaces)).isInstanceOf(ConfigException.class)
                .hasMessageNotContaining("two words");
        assertThatThrownBy(() -> StatusSecurity.readToken(dir.resolve("missing")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cannot read");
        assertThat(StatusSecurity.readToken(tokenFile(TOKEN))).isEqualTo(TOKEN);
        assertThat(StatusSecurity.of(Optional.of(TOKEN), Optional.empty(), Optional.empty()).toString())
                .doesNotContain(TOKEN).contains("bearer token");
    }

    @Test
    void shouldNameTheKeyWhenTheKeyStoreCannotBeOpened() throws Exception {
        Path keyStore = keyStore(dir.resolve("status.p12"));
        QuantaConfig wrongPassword = QuantaConfig.of(Map.of(SchedulerConfigSection.STATUS_TLS_KEYSTORE,
                keyStore.toString(), SchedulerConfigSection.STATUS_TLS_KEYSTORE_PASSWORD, "not-" + PASSWORD));

        assertThatThrownBy(() -> StatusSecurity.from(wrongPassword)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(SchedulerConfigSection.STATUS_TLS_KEYSTORE).hasMessageNotContaining(PASSWORD);
    }

    /** A PKCS12 key store with a self-signed certificate for 127.0.0.1 and localhost, made by the JDK's keytool. */
    static Path keyStore(Path file) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "status", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", PASSWORD,
                "-keypass", PASSWORD).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(process.exitValue()).as("keytool: " + output).isZero();
        return file;
    }
}
