package io.quanta.tests.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.streams.testing.Records;
import io.quanta.topics.TopicCatalogue;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler app over a real broker and schema registry (embedded KRaft + Apicurio), with two node connectors on
 * the simulated backend: jobs are submitted, started, run and finished; the app is restarted mid-run on a fresh state
 * directory (state restored from the changelogs) and no job is lost or started twice. Two instances of one
 * application answer status queries for every job (forwarding to the owner of the key), and when one leaves the
 * other takes its tasks over and finishes every job, each started once.
 */
@ExtendWith(KafkaStackExtension.class)
class SchedulerAppIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String CELL = "cell-0";

    @TempDir
    Path dir;

    private LiveCluster cluster;
    private TopicCatalogue topics;
    private SchedulerApp app;
    private KafkaProducer<String, JobRequest> submissions;

    @BeforeEach
    void setUp(KafkaStack stack) throws Exception {
        cluster = LiveCluster.create(stack, dir, "appit");
        topics = cluster.topics();
        submissions = cluster.closeLater(new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true), new StringSerializer(), topics.submissions().valueSerde().serializer()));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (app != null) {
            app.close();
        }
        cluster.close();
    }

    private SchedulerApp startApp(String stateDir) {
        return cluster.startApp(stateDir, WAIT);
    }

    private void startNode(String nodeId) {
        cluster.startNode(nodeId, CELL, Map.of());
    }

    private void submit(String jobId, int gpus, long seconds) throws Exception {
        submissions.send(new ProducerRecord<>(topics.submissions().name(), jobId, Records.request(Records.job(jobId,
                gpus).setExpectedDurationSeconds(seconds).setSubmittedAt(Instant.now()).build()))).get();
    }

    private <V> Tail<V> tail(io.quanta.topics.TopicSpec<String, V> topic) {
        return cluster.tail(topic);
    }

    private String get(String path) {
        return get(app, path);
    }

    private static String get(SchedulerApp instance, String path) {
        return LiveCluster.get(instance, path);
    }

    @Test
    void shouldScheduleJobsOnSimulatedNodesAndSurviveARestartWithoutLosingOrDoublingJobs() throws Exception {
        Tail<NodeCommand> commands = tail(topics.commands());
        Tail<JobEvent> events = tail(topics.events());
        Tail<JobStatus> statuses = tail(topics.status());
        Tail<SchedulingDecision> decisions = tail(topics.decisions());
        app = startApp("state-1");
        startNode("it-n1");
        startNode("it-n2");
        Await.until("both nodes registered (8 GPUs)", WAIT,
                () -> get("/cells/" + CELL + "/summary").contains("\"gpusTotal\" : 8"));

        for (int i = 0; i < 6; i++) {
            submit("job-" + i, 2, 300 + 100L * i);
        }
        Await.until("first jobs STARTED and COMPLETED", WAIT, () -> events.values().stream()
                .filter(e -> e.getType() == JobEventType.COMPLETED).count() >= 2);
        Await.until("START commands read back", WAIT, () -> commands.values().stream()
                .anyMatch(c -> c.getType() == NodeCommandType.START));

        app.close();
        app = startApp("state-2");
        for (int i = 6; i < 10; i++) {
            submit("job-" + i, 2, 200);
        }

        Await.until("all 10 jobs FINISHED", WAIT, () -> latest(statuses.values()).values().stream()
                .filter(s -> s.getState() == JobState.FINISHED).count() == 10);
        Await.until("every FINISH decision read back", WAIT, () -> decisions.values().stream()
                .filter(d -> d.getType() == DecisionType.FINISH).count() == 10);
        Await.until("every STARTED event read back", WAIT, () -> events.values().stream()
                .filter(e -> e.getType() == JobEventType.STARTED).map(JobEvent::getJobId).distinct().count() == 10);
        Await.until("every START command read back", WAIT, () -> commands.values().stream()
                .filter(c -> c.getType() == NodeCommandType.START).map(NodeCommand::getJobId).distinct()
                .count() == 10);
        Map<String, Long> starts = commands.values().stream().filter(c -> c.getType() == NodeCommandType.START)
                .collect(Collectors.groupingBy(NodeCommand::getJobId, Collectors.counting()));
        Map<String, Long> started = events.values().stream().filter(e -> e.getType() == JobEventType.STARTED)
                .collect(Collectors.groupingBy(JobEvent::getJobId, Collectors.counting()));
        assertThat(starts).hasSize(10).allSatisfy((job, count) -> assertThat(count).as(job).isEqualTo(1L));
        assertThat(started).hasSize(10).allSatisfy((job, count) -> assertThat(count).as(job).isEqualTo(1L));
        assertThat(get("/jobs/job-3")).startsWith("200").contains("\"state\" : \"FINISHED\"");
        List<SchedulingDecision> audit = decisions.values();
        assertThat(audit).extracting(SchedulingDecision::getSeq)
                .isEqualTo(java.util.stream.LongStream.rangeClosed(1, audit.size()).boxed().toList());
        assertThat(audit.stream().filter(d -> d.getType() == DecisionType.CONFIG)).hasSize(1);
        assertThat(audit.stream().filter(d -> d.getType() == DecisionType.FINISH)).hasSize(10);
    }

    @Test
    void shouldAnswerOnEveryInstanceAndKeepSchedulingWhenTheOtherInstanceLeaves() throws Exception {
        Tail<NodeCommand> commands = tail(topics.commands());
        Tail<SchedulingDecision> decisions = tail(topics.decisions());
        Tail<JobStatus> statuses = tail(topics.status());
        app = startApp("state-a");
        SchedulerApp second = startApp("state-b");
        cluster.closeLater(second);
        startNode("mi-n1");
        startNode("mi-n2");
        Await.until("both nodes registered, seen from both instances", WAIT,
                () -> get(app, "/cells/" + CELL + "/summary").contains("\"gpusTotal\" : 8")
                        && get(second, "/cells/" + CELL + "/summary").contains("\"gpusTotal\" : 8"));

        for (int i = 0; i < 8; i++) {
            submit("mi-" + i, 2, 150 + 50L * i);
        }
        // each instance owns some job partitions and forwards the other queries to the owner
        Await.until("every job answered by both instances", WAIT, () -> java.util.stream.IntStream.range(0, 8)
                .allMatch(i -> get(app, "/jobs/mi-" + i).startsWith("200")
                        && get(second, "/jobs/mi-" + i).startsWith("200")));

        app.close();
        app = null;

        Await.until("all 8 jobs FINISHED after the first instance left", WAIT, () -> latest(statuses.values())
                .values().stream().filter(s -> s.getState() == JobState.FINISHED).count() == 8);
        Await.until("the remaining instance answers for every job", WAIT, () -> java.util.stream.IntStream.range(0, 8)
                .allMatch(i -> get(second, "/jobs/mi-" + i).contains("\"state\" : \"FINISHED\"")));
        // the tail reads a poll at a time: read until every job's START is in (more than one is checked below)
        Await.until("every START command read back", WAIT, () -> commands.values().stream()
                .filter(c -> c.getType() == NodeCommandType.START).map(NodeCommand::getJobId).distinct()
                .count() == 8);
        Map<String, Long> starts = commands.values().stream().filter(c -> c.getType() == NodeCommandType.START)
                .collect(Collectors.groupingBy(NodeCommand::getJobId, Collectors.counting()));
        String audit = decisions.values().stream().filter(d -> d.getJobId() != null)
                .map(d -> d.getStreamTime() + " " + d.getType() + " " + d.getJobId() + "#" + d.getAttempt() + " "
                        + d.getReason())
                .collect(Collectors.joining("\n"));
        assertThat(starts).as(audit).hasSize(8).allSatisfy((job, count) -> assertThat(count).as(job).isEqualTo(1L));
    }

    private static Map<String, JobStatus> latest(List<JobStatus> statuses) {
        return statuses.stream().collect(Collectors.toMap(JobStatus::getJobId, Function.identity(), (a, b) -> b));
    }
}
