package io.quanta.tests.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.audit.AuditCommands;
import io.quanta.audit.ExportOptions;
import io.quanta.audit.ExportTraceOptions;
import io.quanta.audit.ReplayOptions;
import io.quanta.audit.log.BrokerAuditSource;
import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.embedded.Await;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.node.NodeConfigSection;
import io.quanta.node.NodeConnector;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.ModelProfile;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live run on the embedded broker and Apicurio: the scheduler app (exactly-once, tiresias-las with low queue
 * thresholds so jobs are demoted and preempted), three node connectors on the simulated backend at 200x, 200 jobs,
 * one node lost mid-run, the scheduler restarted on a fresh state directory with a changed policy parameter. Then
 * {@code audit replay} over the whole log from the broker, and from an export file: every decision reproduced.
 */
@ExtendWith(KafkaStackExtension.class)
class LiveReplayIT {

    private static final Logger LOG = LoggerFactory.getLogger(LiveReplayIT.class);
    private static final Duration WAIT = Duration.ofSeconds(150);
    private static final String CELL = "cell-0";
    private static final int FIRST_WAVE = 120;
    private static final int JOBS = 200;

    @TempDir
    Path dir;

    private final SplittableRandom random = new SplittableRandom(42);
    private LiveCluster cluster;
    private TopicCatalogue topics;
    private SchedulerApp app;
    private KafkaProducer<String, JobRequest> submissions;
    private Tail<SchedulingDecision> decisions;

    @BeforeEach
    void setUp(KafkaStack stack) throws Exception {
        cluster = LiveCluster.create(stack, dir, "audit", Map.of(
                SchedulerConfigSection.POLICY, "tiresias-las",
                SchedulerConfigSection.POLICY_PARAM_PREFIX + "tiresias.thresholds", "0.3,1.5",
                SchedulerConfigSection.NODE_TIMEOUT_MS, "3000",
                SchedulerConfigSection.STATUS_ENABLED, "false"));
        topics = cluster.topics();
        submissions = cluster.closeLater(new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true), new StringSerializer(), topics.submissions().valueSerde().serializer()));
        decisions = cluster.tail(topics.decisions());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (app != null) {
            app.close();
        }
        cluster.close();
    }

    private SchedulerApp startApp(String stateDir, Map<String, String> overrides) {
        Map<String, String> all = new HashMap<>(overrides);
        // Streams members do not leave the group on close: a short session lets the restarted app take over fast
        all.put("session.timeout.ms", "6000");
        return cluster.startApp(stateDir, all, WAIT);
    }

    private NodeConnector startNode(String nodeId) {
        return cluster.startNode(nodeId, CELL, Map.of(NodeConfigSection.SIM_SPEED, "200",
                NodeConfigSection.HEARTBEAT_INTERVAL_MS, "250"));
    }

    private void submit(int i) {
        int[] sizes = {1, 1, 2, 2, 4};
        String id = String.format("live-%03d", i);
        JobSubmitted job = JobSubmitted.newBuilder().setJobId(id).setTenant("vc" + (i % 3))
                .setNumGpus(sizes[random.nextInt(sizes.length)])
                .setProfile(ModelProfile.newBuilder().setModelName(i % 2 == 0 ? "resnet50" : "lstm")
                        .setMinibatchMillis(100.0).build())
                .setExpectedDurationSeconds(10L + random.nextInt(90)).setSubmittedAt(Instant.now()).build();
        submissions.send(new ProducerRecord<>(topics.submissions().name(), id, new JobRequest(job)));
    }

    private long count(DecisionType type, String reasonPart) {
        return decisions.values().stream()
                .filter(d -> d.getType() == type && d.getReason().contains(reasonPart)).count();
    }

    @Test
    void shouldReproduceEveryDecisionOfALiveRunWithPreemptionsANodeLossAndARestart() throws Exception {
        app = startApp("state-1", Map.of());
        startNode("live-n1");
        startNode("live-n2");
        NodeConnector doomed = startNode("live-n3");
        for (int i = 0; i < FIRST_WAVE; i++) {
            submit(i);
        }
        submissions.flush();
        LOG.info("first wave submitted");
        Await.until("40 jobs finished", WAIT, () -> count(DecisionType.FINISH, "") >= 40);
        Await.until("live-n3 running an attempt", WAIT, () -> !doomed.running().isEmpty());
        doomed.close();
        Await.until("the attempts of live-n3 requeued as lost", WAIT,
                () -> count(DecisionType.REQUEUE, "lost on node live-n3") >= 1);
        LOG.info("node lost");
        app.close();
        app = startApp("state-2", Map.of(SchedulerConfigSection.POLICY_PARAM_PREFIX + "tiresias.thresholds", "0.5,2"));
        for (int i = FIRST_WAVE; i < JOBS; i++) {
            submit(i);
        }
        submissions.flush();
        LOG.info("scheduler restarted, second wave submitted");
        Await.until("all jobs finished", WAIT, () -> count(DecisionType.FINISH, "") >= JOBS);
        LOG.info("all jobs finished");

        CellLog log;
        try (BrokerAuditSource source = BrokerAuditSource.connect(QuantaConfig.of(cluster.settings()))) {
            log = source.cell(CELL);
        }
        AuditCommands commands = AuditCommands.of(() -> QuantaConfig.of(cluster.settings()));
        Output replay = new Output();
        int code = commands.replay(ReplayOptions.of(CELL), replay.out, replay.err);

        assertThat(log.decisions()).hasSizeGreaterThan(2 * JOBS);
        assertThat(types(log, DecisionType.SUSPEND)).as("preemptions").isPositive();
        assertThat(log.decisions()).as("node loss").anyMatch(d -> d.decision().getType() == DecisionType.REQUEUE
                && d.decision().getReason().contains("lost on node live-n3"));
        assertThat(types(log, DecisionType.CONFIG)).as("a CONFIG record per configuration").isEqualTo(2);
        assertThat(types(log, DecisionType.FINISH)).isEqualTo(JOBS);
        assertThat(replay.text()).contains(log.decisions().size() + " decisions reproduced, 0 diverged")
                .contains("from inbox offset");
        assertThat(code).as(replay.text() + replay.error()).isZero();

        Path file = dir.resolve("cell-0.avro");
        Output export = new Output();
        assertThat(commands.export(new ExportOptions(CELL, file), export.out, export.err)).isZero();
        Output fromFile = new Output();
        assertThat(commands.replay(ReplayOptions.of(CELL).withFile(file), fromFile.out, fromFile.err)).isZero();
        assertThat(fromFile.text()).contains(log.decisions().size() + " decisions reproduced, 0 diverged");
        Path trace = dir.resolve("trace.csv");
        Output traced = new Output();
        assertThat(commands.exportTrace(new ExportTraceOptions(Optional.of(CELL), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of(trace)), traced.out, traced.err)).isZero();
        assertThat(Files.readAllLines(trace)).hasSize(JOBS + 1);
    }

    private static long types(CellLog log, DecisionType type) {
        return log.decisions().stream().map(RecordedDecision::decision).filter(d -> d.getType() == type).count();
    }

    /** Captured standard output and error of a command. */
    private static final class Output {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

        String text() {
            return outBytes.toString(StandardCharsets.UTF_8);
        }

        String error() {
            return errBytes.toString(StandardCharsets.UTF_8);
        }
    }
}
