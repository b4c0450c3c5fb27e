package io.quanta.streams.status;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.telemetry;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quanta.schemas.JobEventType;
import io.quanta.streams.testing.SchedulerDriver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StatusApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private SchedulerDriver driver;
    private StatusApi owner;

    @BeforeEach
    void runScenario() {
        driver = SchedulerDriver.withPolicy("fifo");
        driver.heartbeat(node("n1", SchedulerDriver.CELL, 2, 1, at(0)).build());
        driver.submit(job("running", 2).build(), at(1));
        driver.submit(job("waiting", 1).build(), at(2));
        driver.event(event("running", 1, "n1", JobEventType.STARTED, at(3)));
        driver.heartbeat(node("n1", SchedulerDriver.CELL, 2, 1, at(13)).build());
        owner = StatusApi.start(new StatusQueries(new DriverStateAccess(driver.driver(), Optional.empty())),
                new InetSocketAddress("127.0.0.1", 0), () -> "RUNNING");
    }

    @AfterEach
    void stop() {
        owner.close();
        driver.close();
    }

    private static URI uri(StatusApi api, String path) {
        return URI.create("http://127.0.0.1:" + api.address().getPort() + path);
    }

    private JsonNode get(StatusApi api, String path, int expectedStatus) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(api, path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(expectedStatus);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
        return JSON.readTree(response.body());
    }

    @Test
    void shouldDescribeRunningJobWithPlacementAndAttainedService() throws Exception {
        JsonNode job = get(owner, "/jobs/running", 200);

        assertThat(job.get("state").asText()).isEqualTo("RUNNING");
        assertThat(job.get("cellId").asText()).isEqualTo(SchedulerDriver.CELL);
        assertThat(job.get("placement")).hasSize(2);
        assertThat(job.get("attainedGpuSeconds").asDouble()).isEqualTo(20.0);
        assertThat(job.get("queueLevel").asInt()).isZero();
    }

    @Test
    void shouldSayWhyAQueuedJobWaits() throws Exception {
        JsonNode job = get(owner, "/jobs/waiting", 200);

        assertThat(job.get("state").asText()).isEqualTo("QUEUED");
        assertThat(job.get("waitingBecause").asText()).contains("queued at level 0 for 11 s")
                .contains("needs 1 GPU").contains("0 free GPUs of 2");
    }

    @Test
    void shouldListJobsByStateNodesAndCellSummary() throws Exception {
        JsonNode queued = get(owner, "/jobs?state=queued", 200);
        JsonNode nodes = get(owner, "/nodes", 200);
        JsonNode summary = get(owner, "/cells/cell-0/summary", 200);

        assertThat(queued).hasSize(1);
        assertThat(queued.get(0).get("jobId").asText()).isEqualTo("waiting");
        assertThat(nodes).hasSize(1);
        assertThat(nodes.get(0).get("gpus").get(0).get("jobs").get(0).asText()).isEqualTo("running");
        assertThat(summary.get("gpusTotal").asInt()).isEqualTo(2);
        assertThat(summary.get("gpusUsed").asInt()).isEqualTo(2);
        assertThat(summary.get("gpusFree").asInt()).isZero();
        assertThat(summary.get("running").asInt()).isEqualTo(1);
        assertThat(summary.get("queued").asInt()).isEqualTo(1);
        assertThat(summary.get("queueLengths").get("0").asInt()).isEqualTo(1);
    }

    @Test
    void shouldShowTheTelemetryTheCellCouldNotUseInItsSummary() throws Exception {
        assertThat(get(owner, "/cells/cell-0/summary", 200).get("droppedTelemetry").asLong()).isZero();

        driver.telemetry(telemetry("running", 1, "n1", Double.NaN, at(14)));
        driver.telemetry(telemetry("running", 9, "n1", 2.0, at(15)));

        assertThat(get(owner, "/cells/cell-0/summary", 200).get("droppedTelemetry").asLong()).isEqualTo(2);
    }

    @Test
    void shouldAnswerNotFoundAndBadRequestAsJson() throws Exception {
        assertThat(get(owner, "/jobs/nope", 404).get("error").asText()).contains("no job nope");
        assertThat(get(owner, "/cells/other/summary", 404).get("status").asInt()).isEqualTo(404);
        assertThat(get(owner, "/jobs?state=SLEEPING", 400).get("error").asText()).contains("SLEEPING");
    }

    @Test
    void shouldListEveryCellAndJobsOfSeveralStates() throws Exception {
        JsonNode cells = get(owner, "/cells", 200);
        JsonNode active = get(owner, "/jobs?state=running,QUEUED", 200);

        assertThat(cells).singleElement().satisfies(c -> {
            assertThat(c.get("cellId").asText()).isEqualTo(SchedulerDriver.CELL);
            assertThat(c.get("gpusTotal").asInt()).isEqualTo(2);
        });
        assertThat(active).extracting(j -> j.get("jobId").asText()).containsExactly("running", "waiting");
        assertThat(get(owner, "/jobs?state=RUNNING,NAPPING", 400).get("error").asText()).contains("NAPPING");
    }

    @Test
    void shouldServeTheDashboardWithAPolicyThatAllowsOnlyItsOwnScriptAndStyle() throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(uri(owner, "/dashboard")).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> root = http.send(HttpRequest.newBuilder(uri(owner, "/")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .startsWith("default-src 'none'; script-src 'sha256-").contains("connect-src 'self'")
                .isEqualTo(DashboardPage.policyFor(page.body()));
        assertThat(page.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(page.body()).contains("<title>Quanta dashboard</title>");
        assertThat(root.statusCode()).isEqualTo(303);
        assertThat(root.headers().firstValue("Location")).contains("dashboard");
    }

    @Test
    void shouldServeTimelinesAndNewestDeadLettersFromTheRecentActivity() throws Exception {
        ActivityLog log = new ActivityLog();
        log.decision(ActivityLogTest.decision("a/b <x>", 1, io.quanta.schemas.DecisionType.START, "fifo: start"));
        log.deadLetter(ActivityLogTest.deadLetter("k1".getBytes(java.nio.charset.StandardCharsets.UTF_8), "first", 1));
        log.deadLetter(ActivityLogTest.deadLetter("k2".getBytes(java.nio.charset.StandardCharsets.UTF_8), "second", 2));
        try (StatusApi api = StatusApi.start(new StatusQueries(new DriverStateAccess(driver.driver(),
                Optional.empty())), new InetSocketAddress("127.0.0.1", 0), () -> "RUNNING", log)) {

            JsonNode timeline = get(api, "/jobs/" + StatusQueries.segment("a/b <x>") + "/timeline", 200);
            JsonNode letters = get(api, "/deadletters?limit=5", 200);

            assertThat(timeline.get("jobId").asText()).isEqualTo("a/b <x>");
            assertThat(timeline.get("decisions").get(0).get("reason").asText()).isEqualTo("fifo: start");
            assertThat(letters).extracting(d -> d.get("reason").asText()).containsExactly("second", "first");
            assertThat(letters.get(0).get("key").asText()).isEqualTo("k2");
            assertThat(letters.get(0).has("value")).as("raw values are never served").isFalse();
            assertThat(get(api, "/jobs/running/timeline", 404).get("error").asText()).contains("nothing recent");
            assertThat(get(api, "/deadletters?limit=0", 400).get("error").asText()).contains("limit");
            assertThat(get(api, "/jobs/" + StatusQueries.segment("a/b") , 404).get("error").asText())
                    .contains("no job a/b");
        }
    }

    @Test
    void shouldForwardKeyQueriesAndGatherListsFromTheOwningInstance() throws Exception {
        try (SchedulerDriver empty = SchedulerDriver.withPolicy("fifo");
             StatusApi other = StatusApi.start(new StatusQueries(new DriverStateAccess(empty.driver(),
                     Optional.of(new HostInfo("127.0.0.1", owner.address().getPort())))),
                     new InetSocketAddress("127.0.0.1", 0), () -> "RUNNING")) {

            JsonNode job = get(other, "/jobs/running", 200);
            JsonNode jobs = get(other, "/jobs", 200);
            JsonNode summary = get(other, "/cells/cell-0/summary", 200);
            JsonNode cells = get(other, "/cells", 200);

            assertThat(cells).extracting(c -> c.get("cellId").asText()).containsExactly("cell-0");
            assertThat(job.get("state").asText()).isEqualTo("RUNNING");
            assertThat(jobs).extracting(j -> j.get("jobId").asText()).containsExactly("running", "waiting");
            assertThat(summary.get("gpusTotal").asInt()).isEqualTo(2);
        }
    }
}
