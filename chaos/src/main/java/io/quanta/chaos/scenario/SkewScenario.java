package io.quanta.chaos.scenario;

import io.quanta.chaos.infra.ChaosCluster;
import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.observe.Seen;
import io.quanta.embedded.Await;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.topics.TopicSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Skew: every node runs a job; one heartbeat of one node, a copy of its latest with {@code sentAt} and the record
 * timestamp an hour ahead, is written to the heartbeats topic, first as it is created ({@code LogAppendTime}: the
 * broker stamps it), then after the topic is switched to {@code CreateTime} (and the broker's own limit on future
 * timestamps lifted, so only the scheduler's {@code scheduler.max.clock.skew.ms} stands in the way). Each time, for
 * longer than the node timeout of the cell's own time afterwards: no node declared lost, no job requeued.
 */
public final class SkewScenario implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(SkewScenario.class);
    private static final Duration RUNNING = Duration.ofMinutes(3);

    /**
     * @param nodes       simulated nodes (each runs one job)
     * @param gpusPerNode their GPUs (each job takes all of a node's)
     * @param heartbeat   the connectors' heartbeat interval
     * @param nodeTimeout the scheduler's node timeout
     * @param skew        how far ahead the forged heartbeat is stamped
     * @param margin      how much longer than the node timeout the cell is watched after each forged heartbeat
     * @param speed       time compression of the simulated jobs
     * @param jobSeconds  their simulated length (long enough to outlast the scenario)
     */
    public record Config(int nodes, int gpusPerNode, Duration heartbeat, Duration nodeTimeout, Duration skew,
                         Duration margin, double speed, long jobSeconds) {

        /** The CI version: three nodes, node timeout 8 s. */
        public static final Config SHORT = new Config(3, 2, Duration.ofMillis(500), Duration.ofSeconds(8),
                Duration.ofHours(1), Duration.ofSeconds(4), 60, 36_000);
        /** The full run: four nodes, the default node timeout (30 s) and heartbeat (5 s). */
        public static final Config FULL = new Config(4, 2, Duration.ofSeconds(5), Duration.ofSeconds(30),
                Duration.ofHours(1), Duration.ofSeconds(10), 60, 360_000);
    }

    private final Config config;

    public SkewScenario(Config config) {
        this.config = config;
    }

    @Override
    public String name() {
        return "skew";
    }

    @Override
    public ScenarioResult run(ChaosStack stack) {
        Report report = new Report(name());
        Map<String, String> settings = ScenarioRun.fifoWithTimeouts(config.nodeTimeout(), config.heartbeat());
        return ScenarioRun.onCluster(stack, name(), settings, report, this::run, () -> { });
    }

    private void run(ChaosCluster cluster, Report report) {
        List<String> nodes = ScenarioRun.schedulerAndNodes(cluster, "skew-n", config.nodes(), config.gpusPerNode(),
                config.speed());
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < config.nodes(); i++) {
            jobs.add("skew-" + i);
            cluster.submit(Jobs.job(jobs.get(i), "vc0", config.gpusPerNode(), config.jobSeconds()));
        }
        ChaosCluster.awaitWhileAlive(cluster.scheduler(), "every job RUNNING", RUNNING,
                () -> jobs.stream().allMatch(j -> latest(cluster, j).map(s -> s.getState() == JobState.RUNNING)
                        .orElse(false)));
        String victim = nodes.get(0);

        // phase 1: the topic as created (LogAppendTime)
        Sent first = forgeHeartbeat(cluster, victim);
        Seen<NodeHeartbeat> stamped = awaitForged(cluster, first);
        report.info("LogAppendTime: forged heartbeat's record time - its CreateTime", Duration.ofMillis(
                stamped.timestamp() - first.createTime()).toMinutes() + " min");
        report.expectThat("LogAppendTime: broker restamped the forged heartbeat",
                Math.abs(stamped.timestamp() - first.sentAt()) < 60_000 ? "yes" : "no",
                Math.abs(stamped.timestamp() - first.sentAt()) < 60_000, "yes");
        watch(cluster, first.sentAt(), "LogAppendTime");

        // phase 2: the topic switched to CreateTime, the broker's limit on future timestamps lifted
        toCreateTime(cluster);
        Sent second = forgeHeartbeat(cluster, victim);
        Optional<Seen<DeadLetter>> letter = Optional.empty();
        try {
            Await.until("a dead letter for the forged heartbeat at " + second.coordinates(), RUNNING,
                    () -> deadLetter(cluster, second).isPresent());
            letter = deadLetter(cluster, second);
        } catch (Await.ConditionTimeoutException e) {
            report.violation(e.getMessage());
        }
        report.expectThat("CreateTime: forged heartbeat dead-lettered for its skew", letter.map(l ->
                        l.value().getReason().contains("ahead of the scheduler's clock") ? "yes" : "no: "
                                + l.value().getReason()).orElse("no dead letter"),
                letter.filter(l -> l.value().getReason().contains("ahead of the scheduler's clock")).isPresent(),
                "yes");
        watch(cluster, second.sentAt(), "CreateTime");

        long lost = cluster.tail().decisions().stream().filter(d -> d.value().getReason().contains(" lost: no "
                + "heartbeat")).map(d -> d.value().getReason()).distinct().count();
        long requeued = cluster.tail().decisions().stream().filter(d -> d.value().getType() == DecisionType.REQUEUE)
                .count();
        List<String> notRunning = jobs.stream().filter(j -> latest(cluster, j).map(s -> s.getState()
                != JobState.RUNNING || s.getAttempt() != 1).orElse(true)).map(j -> j + " " + latest(cluster, j)
                .map(s -> s.getState() + " attempt " + s.getAttempt()).orElse("no status")).toList();
        int nodesLost = cluster.status().summary(ChaosCluster.CELL).map(s -> s.path("nodesLost").asInt()).orElse(-1);
        report.expect("decisions declaring a node lost", lost, 0, cluster.tail().decisions().stream()
                .map(d -> d.value().getReason()).filter(r -> r.contains(" lost: no heartbeat")).toList());
        report.expect("nodes lost (status API)", nodesLost, 0);
        report.expect("jobs requeued", requeued, 0);
        report.expect("jobs no longer running their first attempt", notRunning.size(), 0, notRunning);
    }

    /** A forged heartbeat as sent. */
    private record Sent(Instant forgedSentAt, long createTime, long sentAt, String coordinates) {
    }

    /** Writes a copy of the node's latest heartbeat with sentAt and the record time {@code skew} ahead. */
    private Sent forgeHeartbeat(ChaosCluster cluster, String node) {
        NodeHeartbeat latest = cluster.tail().heartbeats().stream().map(Seen::value)
                .filter(h -> h.getNodeId().equals(node)).reduce((a, b) -> b).orElseThrow();
        long now = System.currentTimeMillis();
        long ahead = now + config.skew().toMillis();
        NodeHeartbeat forged = NodeHeartbeat.newBuilder(latest).setSentAt(Instant.ofEpochMilli(ahead)).build();
        TopicSpec<String, NodeHeartbeat> spec = cluster.topics().heartbeats();
        byte[] value = spec.valueSerde().serializer().serialize(spec.name(), forged);
        try {
            RecordMetadata m = cluster.rawProducer().send(new ProducerRecord<>(spec.name(), null, ahead,
                    node.getBytes(java.nio.charset.StandardCharsets.UTF_8), value)).get(30, TimeUnit.SECONDS);
            LOG.info("skew: heartbeat of {} stamped {} ahead at {}/{}", node, config.skew(), m.partition(), m.offset());
            return new Sent(forged.getSentAt(), ahead, now, m.topic() + "/" + m.partition() + "/" + m.offset());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot write the forged heartbeat: " + e, e);
        }
    }

    private static Seen<NodeHeartbeat> awaitForged(ChaosCluster cluster, Sent sent) {
        Await.until("the forged heartbeat read back", RUNNING, () -> forged(cluster, sent).isPresent());
        return forged(cluster, sent).orElseThrow();
    }

    private static Optional<Seen<NodeHeartbeat>> forged(ChaosCluster cluster, Sent sent) {
        return cluster.tail().heartbeats().stream().filter(h -> h.value().getSentAt().equals(sent.forgedSentAt()))
                .findFirst();
    }

    private static Optional<Seen<DeadLetter>> deadLetter(ChaosCluster cluster, Sent sent) {
        return cluster.tail().deadLetters().stream().filter(d -> (d.value().getSourceTopic() + "/"
                + d.value().getPartition() + "/" + d.value().getOffset()).equals(sent.coordinates())).findFirst();
    }

    /** Waits until the cell's own time passed the forged heartbeat by the node timeout and the margin. */
    private void watch(ChaosCluster cluster, long from, String phase) {
        Instant until = Instant.ofEpochMilli(from).plus(config.nodeTimeout()).plus(config.margin());
        ChaosCluster.awaitWhileAlive(cluster.scheduler(), phase + ": the cell's stream time past " + until,
                config.nodeTimeout().plus(RUNNING), () -> cluster.status().summary(ChaosCluster.CELL)
                        .map(s -> Instant.parse(s.path("streamTime").asText()).isAfter(until)).orElse(false));
    }

    /** Switches the heartbeats topic to CreateTime and lets the broker accept timestamps far ahead. */
    private static void toCreateTime(ChaosCluster cluster) {
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, cluster.topics().heartbeats().name());
        Collection<AlterConfigOp> ops = List.of(
                new AlterConfigOp(new ConfigEntry("message.timestamp.type", "CreateTime"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("message.timestamp.after.max.ms", Long.toString(Long.MAX_VALUE)),
                        AlterConfigOp.OpType.SET));
        try (Admin admin = Admin.create(cluster.kafkaProperties())) {
            admin.incrementalAlterConfigs(Map.of(topic, ops)).all().get(30, TimeUnit.SECONDS);
            Await.until("heartbeats topic on CreateTime", RUNNING, () -> {
                try {
                    return "CreateTime".equals(admin.describeConfigs(List.of(topic)).all().get(10, TimeUnit.SECONDS)
                            .get(topic).get("message.timestamp.type").value());
                } catch (InterruptedException | ExecutionException | TimeoutException e) {
                    throw new IllegalStateException(e);
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot switch the heartbeats topic to CreateTime: " + e, e);
        }
    }

    private static Optional<JobStatus> latest(ChaosCluster cluster, String job) {
        return cluster.tail().statuses().stream().map(Seen::value).filter(s -> s.getJobId().equals(job))
                .reduce((a, b) -> b);
    }
}
