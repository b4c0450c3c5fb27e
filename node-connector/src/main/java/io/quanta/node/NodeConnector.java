package io.quanta.node;

import io.quanta.node.command.CommandHandler;
import io.quanta.node.command.FileAttemptStore;
import io.quanta.node.gpu.GpuDevice;
import io.quanta.node.runner.NodeWorkDir;
import io.quanta.node.telemetry.TelemetryAggregator;
import io.quanta.schemas.RunningAttempt;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.AvroTrust;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent: runs jobs on this server's GPUs (real processes or simulated) as its commands say, and reports what
 * happens. Life cycle: {@link #create(QuantaConfig)}, {@link #start()}, {@link #close()} (idempotent; call it from a
 * shutdown hook for SIGTERM), or simply {@link #run(QuantaConfig)}.
 * <ul>
 *   <li>Commands ({@link CommandLoop}, its own thread): assigns (no consumer group) the one partition of the commands
 *       topic that its node id maps to under the default partitioner ({@link NodePartition}), starting at the end:
 *       every earlier command was addressed to an earlier epoch. Reads committed records only, keeps records keyed by
 *       its node id and hands them to the {@link CommandHandler} (fencing, idempotence). The first heartbeat is sent
 *       only once that position is known.</li>
 *   <li>Publishes ({@link NodePublisher}) {@code NodeHeartbeat} (key node id) every interval ({@link Heartbeater},
 *       {@link NodeTimers}) with GPU health and the attempts it runs, {@code JobEvent} and {@code JobTelemetry}
 *       ({@link TelemetryReporter}; key job id), through an {@link Outbox} and an idempotent producer
 *       ({@link NodeClients}: {@code acks=all}, unbounded delivery timeout): during a broker outage jobs
 *       keep running, records wait, and they are delivered once, in order, when the broker is back.</li>
 *   <li>Job events are journalled on disk ({@link EventJournal}, fsync) before they count as sent and leave the
 *       journal once the broker acknowledged them: a {@code kill -9} during a broker outage loses none; a restarted
 *       connector sends them again before its first heartbeat.</li>
 *   <li>Self-fencing ({@link SelfFence}): without an acknowledged heartbeat for {@code node.fence.timeout.ms}
 *       (shorter than the scheduler's node timeout) it kills its attempts and reports them LOST, so no attempt runs
 *       here after the scheduler has started it elsewhere.</li>
 *   <li>A command that cannot be read because the schema registry is down is read again with backoff, never
 *       skipped; if the command loop dies, the connector stops heartbeating, kills its attempts and stops
 *       ({@link #failure()}), so the scheduler declares the node lost instead of waiting on it.</li>
 *   <li>On close ({@link NodeLifecycle}: the start order reversed): a last telemetry window and a last heartbeat
 *       listing what still runs (real jobs keep running and a restarted connector adopts them; simulated ones are
 *       reported LOST), delivered within the shutdown timeout.</li>
 * </ul>
 * This class wires those parts ({@link NodeBackend} runs the jobs and lists the GPUs) and answers for them.
 */
public final class NodeConnector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeConnector.class);

    private final NodeSettings settings;
    private final QuantaConfig config;
    private final TopicCatalogue catalogue;
    private final Clock clock;
    private final NodeLifecycle lifecycle;
    private volatile Parts parts;

    /** What {@link #start()} built and the accessors read. */
    private record Parts(long epoch, NodeBackend backend, HeartbeatFactory heartbeats, NodePublisher publisher,
                         CommandHandler handler, SelfFence fence, Heartbeater heartbeater) {
    }

    /**
     * A connector for these settings.
     *
     * @param config Kafka client settings ({@code bootstrap.servers}, security, ...)
     * @param catalogue the topics and their serdes
     * @param clock time of heartbeats, events and telemetry
     */
    public NodeConnector(NodeSettings settings, QuantaConfig config, TopicCatalogue catalogue, Clock clock) {
        this.settings = settings;
        this.config = config;
        this.catalogue = catalogue;
        this.clock = clock;
        this.lifecycle = new NodeLifecycle(settings.nodeId());
    }

    /** A connector configured by the {@code node.*}, connection and topic settings, on the system clock. */
    public static NodeConnector create(QuantaConfig config) {
        AvroTrust.trustQuantaSchemas();
        return new NodeConnector(NodeSettings.from(config), config,
                TopicCatalogue.from(config, AvroSerdeFactory.from(config)), Clock.systemUTC());
    }

    /**
     * Creates, starts and runs a connector until the JVM is asked to stop (SIGTERM, Ctrl-C), then closes it cleanly.
     * Blocks.
     */
    public static void run(QuantaConfig config) throws InterruptedException {
        NodeConnector connector = create(config);
        Runtime.getRuntime().addShutdownHook(new Thread(connector::close, "quanta-node-shutdown"));
        connector.start();
        connector.awaitTermination();
    }

    /**
     * Probes the GPUs, recovers the attempts of a previous run from the work directory, and starts consuming
     * commands and publishing. Returns once started; fails (and releases what it took) if the GPUs cannot be listed.
     */
    public void start() {
        lifecycle.start(() -> {
            AvroTrust.trustQuantaSchemas();
            parts = startParts();
        });
    }

    /** Stops consuming, publishes a last telemetry window and heartbeat, waits for delivery, releases everything. */
    @Override
    public void close() {
        lifecycle.close();
    }

    /** Blocks until {@link #close()} has finished. */
    public void awaitTermination() throws InterruptedException {
        lifecycle.awaitTermination();
    }

    /** Why the connector stopped on its own (its command loop failed), if it did. */
    public Optional<RuntimeException> failure() {
        return lifecycle.failure();
    }

    /** The settings. */
    public NodeSettings settings() {
        return settings;
    }

    /** This incarnation's epoch (known once started). */
    public long epoch() {
        return read(Parts::epoch, 0L);
    }

    /** The attempts holding GPUs here. */
    public List<RunningAttempt> running() {
        return read(p -> p.handler().running(), List.of());
    }

    /** This node's GPUs as last probed (empty before start). */
    public List<GpuDevice> gpus() {
        return read(p -> p.heartbeats().lastGpus(), List.of());
    }

    /** The telemetry endpoint given to jobs ({@code udp://127.0.0.1:port}); empty for the simulated backend. */
    public String telemetryEndpoint() {
        return read(p -> p.backend().telemetryEndpoint(), "");
    }

    /** Whether the commands partition is assigned and heartbeats are flowing. */
    public boolean isReady() {
        return read(p -> p.heartbeater().started(), false);
    }

    /** Job events journalled and not yet acknowledged by the broker. */
    public int unacknowledgedEvents() {
        return read(p -> p.publisher().unacknowledgedEvents(), 0);
    }

    /** Attempts killed by self-fencing since start. */
    public long fencedAttempts() {
        return read(p -> p.fence().fencedTotal(), 0L);
    }

    private <T> T read(Function<Parts, T> what, T beforeStart) {
        Parts p = parts;
        return p == null ? beforeStart : what.apply(p);
    }

    /**
     * Starts the parts in order; each registers how to release it as soon as it exists, and closing runs those steps
     * in the reverse order: the command loop stops, then the timers, then the last telemetry window and heartbeat go
     * out, then the outbox delivers what it holds and the producer closes, last the job runner and the telemetry
     * endpoint close.
     */
    private Parts startParts() {
        NodeWorkDir workDir = new NodeWorkDir(settings.workDir());
        long epoch = NodeEpoch.next(workDir, clock);
        TelemetryAggregator aggregator = new TelemetryAggregator(settings.nodeId(), clock.instant());
        NodeBackend backend = NodeBackend.create(settings, workDir, aggregator, clock);
        lifecycle.onClose(backend::close);
        List<GpuDevice> gpus = backend.probe().probe();
        LOG.info("node {} (cell {}, rack {}) epoch {}: {} [{}]", settings.nodeId(), settings.cellId(),
                settings.rack(), epoch, backend.probe().describe(), gpus.stream().map(g -> g.index() + ":" + g.model()
                        + (g.healthy() ? "" : " UNHEALTHY " + g.error().orElse(""))).collect(Collectors.joining(", ")));
        HeartbeatFactory heartbeats = new HeartbeatFactory(settings.nodeId(), settings.cellId(), settings.rack(), epoch,
                backend.probe(), gpus);
        NodePublisher publisher = new NodePublisher(settings, config, catalogue, workDir);
        lifecycle.onClose(() -> publisher.close(settings.shutdownTimeout()));
        publisher.replayJournal();
        CommandHandler handler = new CommandHandler(settings.nodeId(), epoch, backend.runner(),
                new FileAttemptStore(workDir), publisher::event, clock);
        SelfFence fence = new SelfFence(settings.fenceTimeout(), System::nanoTime, handler::fence);
        TelemetryReporter telemetry = new TelemetryReporter(backend.runner(), aggregator, handler::running, publisher,
                clock);
        Heartbeater heartbeater = new Heartbeater(heartbeats, handler::running, publisher, fence::contact,
                lifecycle::failed, clock);
        lifecycle.onClose(() -> lastWords(telemetry, handler, heartbeater));
        handler.recover();
        NodeTimers timers = NodeTimers.start(settings, clock, telemetry, heartbeater, fence, handler);
        lifecycle.onClose(timers::close);
        CommandLoop commands = new CommandLoop(settings.nodeId(), NodeClients.commandConsumer(config,
                settings.nodeId()), catalogue.commands(), handler::handle, timers::startHeartbeats,
                e -> commandLoopFailed(e, handler));
        lifecycle.onClose(commands::close);
        commands.start();
        return new Parts(epoch, backend, heartbeats, publisher, handler, fence, heartbeater);
    }

    /**
     * Once nothing else runs: a last telemetry window; simulated attempts end with the connector (reported LOST); a
     * last heartbeat listing what still runs (real jobs keep running and a restarted connector adopts them).
     */
    private void lastWords(TelemetryReporter telemetry, CommandHandler handler, Heartbeater heartbeater) {
        telemetry.report();
        if (settings.backend() == NodeSettings.Backend.SIMULATED) {
            handler.abandonAll("node connector " + settings.nodeId() + " stopped; simulated jobs end with it");
        }
        heartbeater.beat();
        List<RunningAttempt> still = handler.running();
        LOG.info("node {} stopping; still running: {}", settings.nodeId(), still.isEmpty() ? "nothing"
                : still.stream().map(r -> r.getJobId() + "#" + r.getAttempt()).collect(Collectors.joining(", ")));
    }

    /**
     * A node that can no longer hear its commands must not look alive: it stops heartbeating (the scheduler declares
     * it lost after its node timeout), kills what it runs (nobody could stop it otherwise) and stops, so that a
     * supervisor restarts it ({@code quanta node} exits with code 1).
     */
    private void commandLoopFailed(Throwable e, CommandHandler handler) {
        LOG.error("the command consumer stopped on an unexpected error: node {} stops heartbeating, kills its "
                + "attempts and stops; restart it", settings.nodeId(), e);
        lifecycle.stopOnFailure(e, () -> handler.fence("the node connector's command loop stopped: " + e));
    }
}
