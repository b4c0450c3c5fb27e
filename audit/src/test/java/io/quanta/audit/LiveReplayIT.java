package io.quanta.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.audit.log.BrokerAuditSource;
import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.audit.testing.TopicTail;
import io.quanta.node.NodeConfigSection;
import io.quanta.node.NodeConnector;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.ModelProfile;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.admin.TopicsApply;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
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

    private final Map<String, String> values = new HashMap<>();
    private final List<NodeConnector> nodes = new ArrayList<>();
    private final SplittableRandom random = new SplittableRandom(42);
    private KafkaStack stack;
    private TopicCatalogue topics;
    private SchedulerApp app;
    private KafkaProducer<String, JobRequest> submissions;
    private TopicTail<SchedulingDecision> decisions;

    @BeforeEach
    void setUp(KafkaStack stack) throws Exception {
        this.stack = stack;
        String prefix = "audit" + UUID.randomUUID().toString().substring(0, 8) + ".";
        for (QuantaTopic topic : QuantaTopic.values()) {
            values.put(topic.nameKey(), prefix + topic.defaultName());
        }
        values.put("bootstrap.servers", stack.bootstrapServers());
        values.put("schema.registry.url", stack.registryUrl());
        values.put(SchedulerConfigSection.APPLICATION_ID, prefix + "scheduler");
        values.put(SchedulerConfigSection.POLICY, "tiresias-las");
        values.put(SchedulerConfigSection.POLICY_PARAM_PREFIX + "tiresias.thresholds", "0.3,1.5");
        values.put(SchedulerConfigSection.PASS_INTERVAL_MS, "1000");
        values.put(SchedulerConfigSection.NODE_TIMEOUT_MS, "3000");
        values.put(SchedulerConfigSection.STATUS_ENABLED, "false");
        QuantaConfig config = QuantaConfig.of(values);
        topics = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()))) {
            new TopicsApply(admin, Duration.ofSeconds(30)).apply(topics.all());
        }
        submissions = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new StringSerializer(), topics.submissions().valueSerde().serializer());
        decisions = new TopicTail<>(stack.bootstrapServers(), topics.decisions());
    }

    @AfterEach
    void tearDown() {
        if (app != null) {
            app.close();
        }
        nodes.forEach(NodeConnector::close);
        submissions.close();
        decisions.close();
    }

    private SchedulerApp startApp(String stateDir, Map<String, String> overrides) {
        Map<String, String> all = new HashMap<>(values);
        all.putAll(overrides);
        // Streams members do not leave the group on close: a short session lets the restarted app take over fast
        all.put("session.timeout.ms", "6000");
        all.put(SchedulerConfigSection.STATE_DIR, dir.resolve(stateDir).toString());
        SchedulerApp started = SchedulerApp.create(QuantaConfig.of(all));
        started.start();
        assertThat(started.awaitRunning(WAIT)).as("scheduler RUNNING").isTrue();
        return started;
    }

    private NodeConnector startNode(String nodeId) {
        Map<String, String> all = new HashMap<>(values);
        all.put(NodeConfigSection.ID, nodeId);
        all.put(NodeConfigSection.CELL, CELL);
        all.put(NodeConfigSection.RACK, "rack-1");
        all.put(NodeConfigSection.BACKEND, "simulated");
        all.put(NodeConfigSection.GPUS, "4");
        all.put(NodeConfigSection.SIM_SPEED, "200");
        all.put(NodeConfigSection.HEARTBEAT_INTERVAL_MS, "250");
        all.put(NodeConfigSection.TELEMETRY_WINDOW_MS, "500");
        all.put(NodeConfigSection.WORK_DIR, dir.resolve(nodeId).toString());
        NodeConnector node = NodeConnector.create(QuantaConfig.of(all));
        node.start();
        nodes.add(node);
        return node;
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
        try (BrokerAuditSource source = BrokerAuditSource.connect(QuantaConfig.of(values))) {
            log = source.cell(CELL);
        }
        AuditCommands commands = AuditCommands.of(() -> QuantaConfig.of(values));
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
