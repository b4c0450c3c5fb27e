package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quanta.cli.ExitCodes;
import io.quanta.cli.client.ClusterAccess;
import io.quanta.cli.local.LocalRun;
import io.quanta.embedded.Await;
import io.quanta.node.NodeSettings;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.ModelProfile;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler's dashboard on a running {@code quanta local} (FIFO, one simulated 4-GPU server): in headless
 * Chromium (skipped with a notice when none is installed) the page shows a job waiting with its reason, then, in the
 * same page session, running once the job that blocked it is cancelled, with its timeline and throughput; text from
 * hostile records (a tenant, a job id that the router refuses and that so shows as a dead letter's key, and another
 * dead letter's key, all HTML) stays text. Without a browser, the JSON the page
 * polls is checked over HTTP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardIT {

    private static final Duration START = Duration.ofMinutes(4);
    private static final Duration PAGE = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long FOREVER = 100_000_000L;

    private Path clientProperties;
    private final StringWriter output = new StringWriter();
    private LocalRun run;
    private CompletableFuture<Integer> session;
    private String dashboard;
    private String api;
    private ClusterAccess access;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void startLocalCluster(@TempDir Path temp) throws IOException {
        Path dataDir = temp.resolve("data");
        clientProperties = dataDir.resolve("client.properties");
        run = new LocalRun(new LocalRun.Request(dataDir, false, false, new ClusterShape(1, 1, 4),
                NodeSettings.Backend.SIMULATED, "V100", Optional.empty(), 0, 1, 600, false, false,
                Duration.ofMinutes(3), 0, 0, Duration.ofMillis(500), Optional.empty(),
                QuantaConfig.of(Map.of("scheduler.policy", "fifo"))), new PrintWriter(output, true),
                new PrintWriter(output, true), Clock.systemUTC());
        // on its own thread: with 2 cores the common pool has one thread, which the JDK's WebSocket client needs
        session = CompletableFuture.supplyAsync(() -> {
            try {
                return run.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitCodes.INTERRUPTED;
            }
        }, r -> new Thread(r, "quanta-local-session").start());
        Await.until("quanta local is ready", START, () -> output.toString().contains("ready in") || session.isDone());
        String text = output.toString();
        assertThat(text).as("quanta local output").contains("ready in", "  dashboard                http://127.0.0.1:");
        dashboard = text.substring(text.indexOf("  dashboard ") + 12).lines().findFirst().orElseThrow().trim();
        api = dashboard.substring(0, dashboard.length() - "/dashboard".length());
        access = ClusterAccess.of(QuantaConfig.of(properties(clientProperties)));
    }

    @AfterAll
    void stop() throws Exception {
        if (run != null) {
            run.stop();
            session.get(2, TimeUnit.MINUTES);
        }
    }

    @Test
    @Order(1)
    void shouldShowAWaitingJobRunningWhenTheJobBlockingItIsCancelled() throws Exception {
        Optional<Path> chromium = HeadlessChromium.binary();
        if (chromium.isEmpty()) {
            System.err.println("NOTICE DashboardIT: no Chromium installed, the dashboard is not tested in a browser "
                    + "(apt-get install -y chromium)");
        }
        assumeTrue(chromium.isPresent(), "no Chromium installed (apt-get install -y chromium)");
        submit("dash-blocker", 4);
        Await.until("dash-blocker runs", PAGE, () -> "RUNNING".equals(state("dash-blocker")));
        submit("dash-waiting", 2);
        String hostileJob = "<img src=x onerror=\"window.__pwned=1\">&amp;";
        String hostileKey = "<script>window.__pwned=2</script>";
        produceJob("dash-hostile-tenant", 1);
        produceJob(hostileJob, 1); // refused by the job-id rule: a dead letter keyed by the id
        produceGarbage(hostileKey);

        try (HeadlessChromium browser = HeadlessChromium.open(chromium.get(), dashboard + "?every=1#job=dash-waiting")) {
            awaitPage(browser, "dash-waiting in the queue with why it waits", row("#queue", "dash-waiting")
                    + "?.querySelector('td.reason').textContent.includes('2 GPUs')");
            awaitPage(browser, "the selected job's state", fact("state") + " === 'QUEUED'");
            LocalClusterIT.Cli queue = cli("queue");
            assertThat(queue.code).as(queue.err.toString()).isZero();
            assertThat(queue.out.toString()).as("quanta queue gives the reason the page shows")
                    .contains("dash-waiting", "needs 2 GPUs at once");
            long pollsWhileWaiting = browser.evaluate("Number(document.body.dataset.polls)").asLong();
            awaitPage(browser, "the job of the hostile tenant in the queue", row("#queue", "dash-hostile-tenant")
                    + " !== null");
            awaitPage(browser, "the hostile job id as text among the dead letters", "[...document.querySelectorAll("
                    + "'#deadletters tbody td')].some(td => td.textContent === " + js(hostileJob) + ")");
            awaitPage(browser, "the hostile dead-letter key as text", "[...document.querySelectorAll("
                    + "'#deadletters tbody td')].some(td => td.textContent === " + js(hostileKey) + ")");
            assertThat(browser.evaluate("document.images.length + ',' + document.scripts.length + ','"
                    + " + document.querySelectorAll('main u').length + ',' + (window.__pwned === undefined) + ','"
                    + " + [...document.querySelectorAll('#queue td')].some(td => td.textContent === '<u>tenant</u>')")
                    .asText()).as("images, scripts, underlines, untouched, tenant as text")
                    .isEqualTo("0,1,0,true,true");

            LocalClusterIT.Cli cancel = cli("cancel", "dash-blocker", "--wait");
            assertThat(cancel.code).as(cancel.err.toString()).isZero();

            awaitPage(browser, "dash-waiting running and out of the queue", row("#active", "dash-waiting")
                    + "?.dataset.state === 'RUNNING' && !" + row("#queue", "dash-waiting"));
            awaitPage(browser, "the selected job's state and START decision", fact("state") + " === 'RUNNING' && "
                    + "document.querySelector('#job tr[data-kind=decision][data-type=START]') !== null");
            awaitPage(browser, "the selected job's throughput from telemetry",
                    "document.querySelector('#job .throughput polyline') !== null");
            assertThat(browser.evaluate("Number(document.body.dataset.polls)").asLong())
                    .as("the same page polled on").isGreaterThan(pollsWhileWaiting);
            assertThat(browser.evaluate("[...document.querySelectorAll('#job tr[data-kind=status]')]"
                    + ".map(r => r.dataset.state).join(',')").asText()).as("status changes in the timeline")
                    .startsWith("QUEUED").contains("RUNNING");
            awaitPage(browser, "three busy GPUs (dash-waiting's two, the hostile tenant's job's one)",
                    "document.querySelectorAll('#nodes .gpu.busy[data-gpu]').length === 3");
            assertThat(browser.evaluate("window.__pwned === undefined && document.images.length === 0")
                    .asBoolean()).isTrue();
        }
    }

    @Test
    @Order(2)
    void shouldServeThePageAndTheJsonItPolls() throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(dashboard)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .startsWith("default-src 'none'");
        assertThat(page.body()).doesNotContainPattern("(src|href)=\"https?:");

        String jobId = "json.job_1-x";
        String key = "key <i>1</i>";
        produceJob(jobId, 1);
        produceGarbage(key);
        String timelinePath = "/jobs/" + URLEncoder.encode(jobId, StandardCharsets.UTF_8).replace("+", "%20")
                + "/timeline";
        Await.until("a timeline of " + jobId, PAGE, () -> get(timelinePath).path("statuses").size() > 0);
        Await.until("the dead letter keyed " + key, PAGE, () -> get("/deadletters?limit=100").findValuesAsText("key")
                .contains(key));

        JsonNode timeline = get(timelinePath);
        assertThat(timeline.get("jobId").asText()).isEqualTo(jobId);
        assertThat(timeline.get("statuses").get(0).get("state").asText()).isIn("QUEUED", "STARTING", "RUNNING");
        assertThat(get("/cells").findValuesAsText("cellId")).containsExactly("cell-0");
        assertThat(get("/jobs?state=QUEUED,STARTING,RUNNING").findValuesAsText("jobId")).contains(jobId);
    }

    private JsonNode get(String path) {
        try {
            return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(api + path)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
        } catch (IOException e) {
            return JSON.createObjectNode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return JSON.createObjectNode();
        }
    }

    private String state(String jobId) {
        return get("/jobs/" + jobId).path("state").asText();
    }

    private void submit(String id, int gpus) {
        LocalClusterIT.Cli submit = cli("submit", "--id", id, "--gpus", Integer.toString(gpus), "--tenant", "dash",
                "--model", "resnet50", "--duration", Long.toString(FOREVER));
        assertThat(submit.code).as(submit.err.toString()).isZero();
    }

    /** A submission from a producer that is not the CLI: any job id the schema allows (the router checks it). */
    private void produceJob(String id, int gpus) {
        JobSubmitted job = JobSubmitted.newBuilder().setJobId(id).setTenant("<u>tenant</u>").setNumGpus(gpus)
                .setProfile(ModelProfile.newBuilder().setModelName("resnet50").build())
                .setExpectedDurationSeconds(FOREVER).setSubmittedAt(Instant.now()).build();
        try (KafkaProducer<String, JobRequest> producer = access.producer(access.topics().submissions(),
                "dashboard-it")) {
            producer.send(new ProducerRecord<>(access.topics().submissions().name(), id, new JobRequest(job)));
        }
    }

    /** Bytes that are no record, under a hostile key: a dead letter. */
    private void produceGarbage(String key) {
        Map<String, Object> props = new HashMap<>(access.config().kafkaClientProperties());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(access.topics().submissions().name(),
                    key.getBytes(StandardCharsets.UTF_8), new byte[] {0, 0, 0, 0, 9, 42, 42}));
        }
    }

    private LocalClusterIT.Cli cli(String... args) {
        LocalClusterIT.Cli cli = new LocalClusterIT.Cli();
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("-c", clientProperties.toString()));
        cli.code = cli.line.execute(all.toArray(String[]::new));
        return cli;
    }

    private static void awaitPage(HeadlessChromium browser, String what, String condition) {
        Await.until(what + " on the dashboard", PAGE, () -> browser.evaluate("!!(" + condition + ")").asBoolean());
    }

    /** The row of a job in a section's table (or undefined), found by comparing its id, never by a selector. */
    private static String row(String section, String jobId) {
        return "[...document.querySelectorAll('" + section + " tbody tr')].find(r => r.dataset.job === " + js(jobId)
                + ")";
    }

    private static String fact(String name) {
        return "document.querySelector('#job dd[data-fact=\"" + name + "\"]')?.textContent";
    }

    /** A JavaScript string literal. */
    private static String js(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> properties(Path file) throws IOException {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            props.load(in);
        }
        Map<String, String> out = new HashMap<>();
        props.forEach((k, v) -> out.put(k.toString(), v.toString()));
        return out;
    }
}
