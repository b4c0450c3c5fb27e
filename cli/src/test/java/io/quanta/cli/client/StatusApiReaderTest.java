package io.quanta.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.streams.status.StatusViews.JobView;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The CLI reads the status API's job views back as the status topic's records, and reads the topic otherwise. */
class StatusApiReaderTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    private final Map<String, String> bodies = new ConcurrentHashMap<>();
    private final List<String> asked = new ArrayList<>();
    private HttpServer server;
    private StatusApiReader reader;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            synchronized (asked) {
                asked.add(path);
            }
            String body = bodies.get(path);
            byte[] bytes = (body == null ? "{\"status\":404,\"error\":\"no job\"}" : body)
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        reader = new StatusApiReader(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"),
                Duration.ofSeconds(2));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void shouldReadAJobViewBackAsTheStatusTopicsRecord() throws Exception {
        JobStatus running = JobStatus.newBuilder().setJobId("job a/1").setTenant("vision").setCellId("cell-0")
                .setState(JobState.RUNNING).setAttempt(2).setNumGpus(2).setQueueLevel(1).setAttainedGpuSeconds(120.5)
                .setPlacement(List.of(new GpuRef("r00-s001", 0), new GpuRef("r00-s001", 1))).setSubmittedAt(T)
                .setQueuedSince(null).setFirstStartedAt(T.plusSeconds(5)).setLastStartedAt(T.plusSeconds(60))
                .setFinishedAt(null).setPreemptions(1).setMigrations(0).setReason("started by quanta")
                .setUpdatedAt(T.plusSeconds(61)).build();
        bodies.put("/jobs/job%20a%2F1", JSON.writeValueAsString(view(running)));

        assertThat(reader.job("job a/1")).contains(running);
    }

    @Test
    void shouldListTheJobsOfTheAskedStates() throws Exception {
        JobStatus queued = JobStatus.newBuilder().setJobId("q1").setState(JobState.QUEUED).setSubmittedAt(T)
                .setQueuedSince(T).setReason("priority 1 of 1 waiting").setUpdatedAt(T).build();
        bodies.put("/jobs?state=QUEUED", JSON.writeValueAsString(List.of(view(queued))));

        assertThat(reader.jobs(EnumSet.of(JobState.QUEUED))).hasValueSatisfying(jobs -> assertThat(jobs)
                .containsExactly(queued));
    }

    @Test
    void shouldAnswerNothingWhenTheApiDoesNotHaveTheJobOrIsNotThere() {
        assertThat(reader.job("gone")).isEmpty();
        assertThat(asked).containsExactly("/jobs/gone");

        server.stop(0);
        assertThat(reader.jobs(EnumSet.of(JobState.QUEUED))).isEmpty();
    }

    @Test
    void shouldAnswerNothingForABodyThatIsNoJobViewSoThatTheCallerReadsTheTopic() {
        bodies.put("/jobs/odd", "{\"jobId\":\"odd\",\"state\":\"DANCING\"}");
        bodies.put("/jobs/bad-gpu", "{\"jobId\":\"bad-gpu\",\"state\":\"RUNNING\",\"placement\":[\"no-slash\"]}");
        bodies.put("/jobs/bad-time", "{\"jobId\":\"bad-time\",\"state\":\"QUEUED\",\"submittedAt\":\"yesterday\"}");
        bodies.put("/jobs?state=QUEUED", "[{\"jobId\":\"q\",\"state\":\"QUEUED\"},{\"state\":\"nope\"}]");
        bodies.put("/jobs/html", "<html>a proxy's page</html>");

        assertThat(reader.job("odd")).isEmpty();
        assertThat(reader.job("bad-gpu")).isEmpty();
        assertThat(reader.job("bad-time")).isEmpty();
        assertThat(reader.job("html")).isEmpty();
        assertThat(reader.jobs(EnumSet.of(JobState.QUEUED))).as("one bad view: the whole list from the topic")
                .isEmpty();
    }

    @Test
    void shouldNotReadAnAnswerLargerThanTheLimit() {
        String view = "{\"jobId\":\"huge\",\"state\":\"QUEUED\"}";
        bodies.put("/jobs/small", view);
        bodies.put("/jobs/huge", view + " ".repeat(StatusApiReader.MAX_BODY_BYTES));

        assertThat(reader.job("small")).as("the same view within the limit is read").isPresent();
        assertThat(reader.job("huge")).isEmpty();
    }

    private static JobView view(JobStatus s) {
        return new JobView(s.getJobId(), s.getCellId(), s.getTenant(), s.getState().name(), s.getAttempt(),
                s.getNumGpus(), s.getQueueLevel(), s.getAttainedGpuSeconds(),
                s.getPlacement().stream().map(g -> g.getNodeId() + "/" + g.getIndex()).toList(), s.getReason(), null,
                text(s.getSubmittedAt()), text(s.getQueuedSince()), text(s.getFirstStartedAt()),
                text(s.getLastStartedAt()), text(s.getFinishedAt()), s.getPreemptions(), s.getMigrations(),
                text(s.getUpdatedAt()));
    }

    private static String text(Instant t) {
        return t == null ? null : t.toString();
    }
}
