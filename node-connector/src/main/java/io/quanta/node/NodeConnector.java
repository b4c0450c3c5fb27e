package io.quanta.node;

import io.quanta.node.command.CommandHandler;
import io.quanta.node.command.FileAttemptStore;
import io.quanta.node.gpu.GpuDevice;
import io.quanta.node.gpu.GpuModels;
import io.quanta.node.gpu.GpuProbe;
import io.quanta.node.gpu.NvidiaSmiGpuProbe;
import io.quanta.node.gpu.SimulatedGpuProbe;
import io.quanta.node.model.ThroughputModel;
import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.AttemptProgress;
import io.quanta.node.runner.JobRunner;
import io.quanta.node.runner.NodeWorkDir;
import io.quanta.node.runner.ProcessJobRunner;
import io.quanta.node.runner.ProcessRunnerSettings;
import io.quanta.node.runner.SimulatedJobRunner;
import io.quanta.node.runner.WallClockSimulatedRunner;
import io.quanta.node.telemetry.TelemetryAggregator;
import io.quanta.node.telemetry.UdpTelemetryServer;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.AvroTrust;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
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
 *   <li>Publishes {@code NodeHeartbeat} (key node id) every interval with GPU health and the attempts it runs,
 *       {@code JobEvent} and {@code JobTelemetry} (key job id), through an {@link Outbox} and an idempotent producer
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
 *   <li>On close: a last telemetry window and a last heartbeat listing what still runs (real jobs keep running and a
 *       restarted connector adopts them; simulated ones are reported LOST), delivered within the shutdown timeout.</li>
 * </ul>
 */
public final class NodeConnector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeConnector.class);
    /** How often ended attempts older than {@code node.attempts.retention.hours} are removed. */
    private static final Duration SWEEP_INTERVAL = Duration.ofHours(1);

    private final NodeSettings settings;
    private final QuantaConfig config;
    private final TopicCatalogue catalogue;
    private final Clock clock;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private final CountDownLatch commandsReady = new CountDownLatch(1);

    private NodeWorkDir workDir;
    private long epoch;
    private JobRunner runner;
    private SimulatedJobRunner simulation;
    private UdpTelemetryServer telemetryServer;
    private TelemetryAggregator aggregator;
    private HeartbeatFactory heartbeats;
    private CommandHandler handler;
    private KafkaProducer<String, byte[]> producer;
    private Outbox<Outbound<?>> outbox;
    private EventJournal journal;
    private SelfFence fence;
    private CountDownLatch journalReplayed = new CountDownLatch(0);
    private volatile RuntimeException failure;
    private byte[] signingKey;
    private ScheduledExecutorService timers;
    private CommandLoop commands;
    private Thread commandThread;
    private boolean started;
    private boolean closed;

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
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("node connector " + settings.nodeId() + " already started");
        }
        started = true;
        AvroTrust.trustQuantaSchemas();
        try {
            startComponents();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** This incarnation's epoch (known once started). */
    public synchronized long epoch() {
        return epoch;
    }

    /** The settings. */
    public NodeSettings settings() {
        return settings;
    }

    /** The attempts holding GPUs here. */
    public List<RunningAttempt> running() {
        return handler == null ? List.of() : handler.running();
    }

    /** This node's GPUs as last probed (empty before start). */
    public synchronized List<GpuDevice> gpus() {
        return heartbeats == null ? List.of() : heartbeats.lastGpus();
    }

    /** The telemetry endpoint given to jobs ({@code udp://127.0.0.1:port}); empty for the simulated backend. */
    public synchronized String telemetryEndpoint() {
        return telemetryServer == null ? "" : telemetryServer.endpoint();
    }

    /** Whether the commands partition is assigned and heartbeats are flowing. */
    public boolean isReady() {
        return commandsReady.getCount() == 0;
    }

    /** Blocks until {@link #close()} has finished. */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /** Stops consuming, publishes a last telemetry window and heartbeat, waits for delivery, releases everything. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (commands != null) {
            commands.stop();
        }
        try {
            shutdown();
        } finally {
            terminated.countDown();
        }
    }

    private void startComponents() {
        workDir = new NodeWorkDir(settings.workDir());
        signingKey = settings.authKey().map(NodeSettings.NodeKey::bytes).orElse(null);
        epoch = NodeEpoch.next(workDir, clock);
        aggregator = new TelemetryAggregator(settings.nodeId(), clock.instant());
        GpuProbe probe = createRunnerAndProbe();
        List<GpuDevice> gpus = probe.probe();
        LOG.info("node {} (cell {}, rack {}) epoch {}: {} [{}]", settings.nodeId(), settings.cellId(),
                settings.rack(), epoch, probe.describe(), gpus.stream().map(g -> g.index() + ":" + g.model()
                        + (g.healthy() ? "" : " UNHEALTHY " + g.error().orElse(""))).collect(Collectors.joining(", ")));
        heartbeats = new HeartbeatFactory(settings.nodeId(), settings.cellId(), settings.rack(), epoch, probe, gpus);
        producer = new KafkaProducer<>(NodeClients.producer(config, settings.nodeId()), new StringSerializer(),
                new ByteArraySerializer());
        outbox = new Outbox<>("quanta-node-outbox", this::send, settings.outboxCapacity(),
                item -> item.kind() == Outbound.Kind.TELEMETRY, Duration.ofMillis(100), Duration.ofSeconds(10));
        journal = new EventJournal(workDir);
        replayJournal(journal.recover());
        handler = new CommandHandler(settings.nodeId(), epoch, runner, new FileAttemptStore(workDir), this::publish,
                clock);
        handler.recover();
        fence = new SelfFence(settings.fenceTimeout(), System::nanoTime, handler::fence);
        timers = Executors.newScheduledThreadPool(1, r -> {
            Thread t = new Thread(r, "quanta-node-timers");
            t.setDaemon(true);
            return t;
        });
        timers.scheduleAtFixedRate(this::safeTelemetry, settings.telemetryWindow().toMillis(),
                settings.telemetryWindow().toMillis(), TimeUnit.MILLISECONDS);
        long fenceCheck = Math.max(10, Math.min(1_000, settings.fenceTimeout().toMillis() / 10));
        timers.scheduleAtFixedRate(this::safeFenceCheck, fenceCheck, fenceCheck, TimeUnit.MILLISECONDS);
        if (!settings.attemptRetention().isZero()) {
            timers.scheduleAtFixedRate(this::safeSweep, 0, SWEEP_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        }
        commands = new CommandLoop(settings.nodeId(), NodeClients.commandConsumer(config, settings.nodeId()),
                catalogue.commands(), handler::handle, this::commandsReady, this::commandLoopFailed);
        commandThread = new Thread(commands, "quanta-node-commands");
        commandThread.start();
    }

    private GpuProbe createRunnerAndProbe() {
        if (settings.backend() == NodeSettings.Backend.SIMULATED) {
            simulation = new SimulatedJobRunner(settings.nodeId(), ThroughputModel.named(settings.throughputModel()),
                    node -> settings.rack(), settings.simSpeed(), clock.instant());
            runner = new WallClockSimulatedRunner(simulation, clock);
            int memory = settings.gpuMemoryMiB() > 0 ? settings.gpuMemoryMiB()
                    : GpuModels.memoryMiB(settings.gpuModel()).orElse(GpuModels.DEFAULT_MEMORY_MIB);
            return new SimulatedGpuProbe(settings.nodeId(), settings.gpus(), settings.gpuModel(), memory,
                    simulation::gpuUsage);
        }
        telemetryServer = new UdpTelemetryServer(settings.telemetryPort(), aggregator, clock);
        runner = new ProcessJobRunner(workDir, new ProcessRunnerSettings(settings.suspendDeadline(),
                settings.termGrace(), telemetryServer.endpoint(), settings.stderrLines(), settings.sandbox()), clock);
        return new NvidiaSmiGpuProbe(settings.nvidiaSmi(), Duration.ofSeconds(10));
    }

    /**
     * Hands a record to the producer. A record the producer could not even append (metadata unavailable within
     * max.block.ms, buffer full) comes back as an already-failed future: rethrown, so the outbox retries it. Appended
     * records are retried by the idempotent producer itself until delivered.
     */
    private void send(Outbound<?> item) throws Exception {
        Future<RecordMetadata> sent = producer.send(item.toProducerRecord(signingKey), (metadata, error) -> {
            if (error != null) {
                LOG.warn("{} not delivered: {}", item, error.toString());
            } else {
                item.onDelivered().run();
            }
        });
        if (sent.isDone()) {
            try {
                sent.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }

    /**
     * Journals the event (fsync) and queues it; it leaves the journal once the broker acknowledged it. The event names
     * this node's cell, so the scheduler routes it there whichever partition it lands on (a connector in another
     * language partitions by its own client's rule).
     */
    private void publish(JobEvent unstamped) {
        JobEvent event = JobEvent.newBuilder(unstamped).setCellId(settings.cellId()).build();
        EventJournal.Entry entry = journal.append(event);
        outbox.add(new Outbound<>(Outbound.Kind.EVENT, catalogue.events(), event.getJobId(), event, event.getAt(),
                () -> journal.delivered(entry)));
    }

    /**
     * Queues the events an earlier run journalled and never saw acknowledged, ahead of everything else. This run's
     * first heartbeat waits until they are acknowledged: it carries a new epoch, and the scheduler ignores events of
     * an earlier epoch once it has seen a newer one.
     */
    private void replayJournal(List<EventJournal.Entry> entries) {
        journalReplayed = new CountDownLatch(entries.size());
        for (EventJournal.Entry entry : entries) {
            JobEvent event = entry.event();
            outbox.add(new Outbound<>(Outbound.Kind.EVENT, catalogue.events(), event.getJobId(), event,
                    event.getAt(), () -> {
                        journal.delivered(entry);
                        journalReplayed.countDown();
                    }));
        }
    }

    /** Why the connector stopped on its own (its command loop failed), if it did. */
    public Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure);
    }

    /** Job events journalled and not yet acknowledged by the broker. */
    public int unacknowledgedEvents() {
        return journal == null ? 0 : journal.pending();
    }

    /** Attempts killed by self-fencing since start. */
    public long fencedAttempts() {
        return fence == null ? 0 : fence.fencedTotal();
    }

    /** The command partition is assigned: heartbeats may start (they tell the scheduler this node listens). */
    private void commandsReady() {
        commandsReady.countDown();
        timers.scheduleAtFixedRate(this::safeHeartbeat, 0, settings.heartbeatInterval().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * A node that can no longer hear its commands must not look alive: it stops heartbeating (the scheduler declares
     * it lost after its node timeout), kills what it runs (nobody could stop it otherwise) and stops, so that a
     * supervisor restarts it ({@code quanta node} exits with code 1).
     */
    private void commandLoopFailed(Throwable e) {
        LOG.error("the command consumer stopped on an unexpected error: node {} stops heartbeating, kills its "
                + "attempts and stops; restart it", settings.nodeId(), e);
        failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
        handler.fence("the node connector's command loop stopped: " + e);
        Thread stopper = new Thread(this::close, "quanta-node-failed");
        stopper.setDaemon(false);
        stopper.start();
    }

    private void safeHeartbeat() {
        if (failure != null || journalReplayed.getCount() > 0) {
            return;
        }
        try {
            NodeHeartbeat beat = heartbeats.heartbeat(handler.running(), clock.instant());
            outbox.offerLatest(new Outbound<>(Outbound.Kind.HEARTBEAT, catalogue.heartbeats(), settings.nodeId(),
                    beat, beat.getSentAt(), fence::contact));
        } catch (RuntimeException e) {
            LOG.error("heartbeat failed", e);
        }
    }

    private void safeFenceCheck() {
        try {
            fence.check();
        } catch (RuntimeException e) {
            LOG.error("self-fencing check failed", e);
        }
    }

    private void safeSweep() {
        try {
            handler.forgetEndedBefore(clock.instant().minus(settings.attemptRetention()));
        } catch (RuntimeException e) {
            LOG.warn("cleaning up ended attempts failed (retried in {}): {}", SWEEP_INTERVAL, e.toString());
        }
    }

    private void safeTelemetry() {
        try {
            for (AttemptProgress p : runner.progress()) {
                aggregator.recordTotal(p.attempt(), p.minibatchesDone(), p.gpuMemoryUsedMiB(), clock.instant());
            }
            for (JobTelemetry unstamped : aggregator.flush(clock.instant())) {
                // named with this node's cell like the events (see publish)
                JobTelemetry t = JobTelemetry.newBuilder(unstamped).setCellId(settings.cellId()).build();
                outbox.add(new Outbound<>(Outbound.Kind.TELEMETRY, catalogue.telemetry(), t.getJobId(), t,
                        t.getReportedAt()));
            }
            Set<AttemptId> active = handler.running().stream()
                    .map(r -> new AttemptId(r.getJobId(), r.getAttempt())).collect(Collectors.toSet());
            aggregator.retainOnly(active);
        } catch (RuntimeException e) {
            LOG.error("telemetry window failed", e);
        }
    }

    private void shutdown() {
        join(commandThread);
        if (timers != null) {
            timers.shutdownNow();
            awaitQuietly(timers);
        }
        if (handler != null && outbox != null) {
            safeTelemetry();
            if (settings.backend() == NodeSettings.Backend.SIMULATED) {
                handler.abandonAll("node connector " + settings.nodeId() + " stopped; simulated jobs end with it");
            }
            if (isReady() && failure == null) {
                safeHeartbeat();
            }
            List<RunningAttempt> still = handler.running();
            LOG.info("node {} stopping; still running: {}", settings.nodeId(), still.isEmpty() ? "nothing"
                    : still.stream().map(r -> r.getJobId() + "#" + r.getAttempt()).collect(Collectors.joining(", ")));
        }
        if (outbox != null) {
            outbox.close(settings.shutdownTimeout());
        }
        if (producer != null) {
            producer.close(settings.shutdownTimeout());
        }
        if (runner != null) {
            runner.close();
        }
        if (telemetryServer != null) {
            telemetryServer.close();
        }
    }

    private static void join(Thread thread) {
        if (thread == null) {
            return;
        }
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitQuietly(ScheduledExecutorService executor) {
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
