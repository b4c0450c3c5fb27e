package io.quanta.streams;

import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeAdmission;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.streams.cell.StateCodecs;
import io.quanta.streams.cell.CellSchedulerProcessor;
import io.quanta.streams.cell.ConfigFingerprint;
import io.quanta.streams.cell.JobRecord;
import io.quanta.streams.router.AdmissionsProcessor;
import io.quanta.streams.router.InputRouterProcessor;
import io.quanta.streams.router.JobRoute;
import io.quanta.streams.router.NodeAuthenticator;
import io.quanta.streams.router.Routes;
import io.quanta.streams.router.TenantTopics;
import io.quanta.streams.store.BytesCodecSerde;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The one wiring class of the cell scheduler: every source, processor, sink and store name, and the {@link #build}
 * method that production, the tests, the simulator and audit replay all call. Topic names come from the injected
 * {@link TopicCatalogue}; nothing here names a topic.
 *
 * <pre>
 * sub-topology 0 (jobs router)   submissions, telemetry, events ─▶ route by job ─▶ inbox | status | dead letters
 * sub-topology 1 (nodes router)  heartbeats ─▶ route by declared cell ─▶ inbox | dead letters
 * sub-topology 2 (cells)         inbox ─▶ CellSchedulerProcessor ─▶ commands | decisions | status | dead letters
 * </pre>
 *
 * Submissions, telemetry and events must have the same partition count: their router shares the job-to-cell store.
 * Changelog topics are {@code <application.id>-<store name>-changelog}.
 */
public final class SchedulerTopology {

    public static final String SUBMISSIONS_SOURCE = "submissions-source";
    public static final String TELEMETRY_SOURCE = "telemetry-source";
    public static final String EVENTS_SOURCE = "events-source";
    public static final String HEARTBEATS_SOURCE = "heartbeats-source";
    public static final String INBOX_SOURCE = "inbox-source";

    public static final String SUBMISSION_ROUTER = "submission-router";
    public static final String TELEMETRY_ROUTER = "telemetry-router";
    public static final String EVENT_ROUTER = "event-router";
    public static final String HEARTBEAT_ROUTER = "heartbeat-router";
    public static final String CELL_SCHEDULER = "cell-scheduler";

    public static final String JOB_ROUTER_INBOX_SINK = "job-router-inbox-sink";
    public static final String JOB_ROUTER_STATUS_SINK = "job-router-status-sink";
    public static final String JOB_ROUTER_DEADLETTER_SINK = "job-router-deadletter-sink";
    public static final String NODE_ROUTER_INBOX_SINK = "node-router-inbox-sink";
    public static final String NODE_ROUTER_DEADLETTER_SINK = "node-router-deadletter-sink";
    public static final String COMMANDS_SINK = "cell-commands-sink";
    public static final String DECISIONS_SINK = "cell-decisions-sink";
    public static final String CELL_STATUS_SINK = "cell-status-sink";
    public static final String CELL_DEADLETTER_SINK = "cell-deadletter-sink";

    /** Router: job id to its cell and submission fingerprint. */
    public static final String JOB_ROUTES_STORE = "router-job-routes";
    /** Global (node authentication on): admitted node ids, from {@code quanta.nodes.admissions}. */
    public static final String ADMISSIONS_STORE = "router-node-admissions";
    public static final String ADMISSIONS_SOURCE = "admissions-source";
    /** Source of every tenant's submissions topic (tenant authentication on). */
    public static final String TENANT_SUBMISSIONS_SOURCE = "tenant-submissions-source";
    public static final String ADMISSIONS_PROCESSOR = "admissions-processor";
    /** Router: node id to the cell it declared last. */
    public static final String NODE_CELLS_STORE = "router-node-cells";
    /** Cells: active jobs ({@code cell|job}). */
    public static final String JOBS_STORE = "scheduler-jobs";
    /** Cells: jobs that reached a terminal state ({@code cell|job}). */
    public static final String FINISHED_JOBS_STORE = "scheduler-finished-jobs";
    /** Cell store: ended jobs by end time ({@code <cell>|<end ms, 16 hex digits>/<job id>}), for retention. */
    public static final String FINISHED_INDEX_STORE = "scheduler-finished-index";
    /** Cells: nodes ({@code cell|node}). */
    public static final String NODES_STORE = "scheduler-nodes";
    /** Cells: GPUs held by running attempts ({@code cell|job}). */
    public static final String ASSIGNMENTS_STORE = "scheduler-assignments";
    /** Cells: completed jobs' service distribution (key cell). */
    public static final String SERVICE_STORE = "scheduler-service-distribution";
    /** Cells: interference memory (key cell). */
    public static final String INTERFERENCE_STORE = "scheduler-interference";
    /** Cells: decision sequence, config hash, stream time, next wake-up (key cell). */
    public static final String CELL_META_STORE = "scheduler-cell-meta";

    private SchedulerTopology() {
    }

    /** The topology with the built-in policies. */
    public static Topology build(TopicCatalogue topics, SchedulerSettings settings, StoreOptions stores) {
        return build(topics, settings, stores, PolicyRegistry.builtIn());
    }

    /** The topology, with policies found in {@code policies}. */
    public static Topology build(TopicCatalogue topics, SchedulerSettings settings, StoreOptions stores,
                                 PolicyRegistry policies) {
        Topology topology = new Topology();
        wire(Wiring.of(topology, stores), topics, settings, policies);
        return topology;
    }

    /**
     * Wires the scheduler into {@code wiring}: what {@link #build} does for a Kafka Streams topology, and what the
     * simulator does for a {@link io.quanta.streams.host.DirectTopology}.
     */
    public static void wire(Wiring wiring, TopicCatalogue topics, SchedulerSettings settings,
                            PolicyRegistry policies) {
        policies.create(settings.policy());
        addJobRouter(wiring, topics, settings);
        addNodeRouter(wiring, topics, settings);
        addCellScheduler(wiring, topics, settings, policies);
        addStores(wiring);
        addAdmissions(wiring, topics, settings);
    }

    /** The changelog topic of a store for an application id. */
    public static String changelogTopic(String applicationId, String storeName) {
        return applicationId + "-" + storeName + "-changelog";
    }

    private static void addJobRouter(Wiring topology, TopicCatalogue topics, SchedulerSettings settings) {
        InputRouterProcessor.Sinks sinks = new InputRouterProcessor.Sinks(JOB_ROUTER_INBOX_SINK,
                JOB_ROUTER_STATUS_SINK, JOB_ROUTER_DEADLETTER_SINK);
        InputRouterProcessor.Limits limits = limits(settings);
        source(topology, SUBMISSIONS_SOURCE, Serdes.ByteArray().deserializer(), topics.submissions());
        source(topology, TELEMETRY_SOURCE, Serdes.ByteArray().deserializer(), topics.telemetry());
        source(topology, EVENTS_SOURCE, Serdes.ByteArray().deserializer(), topics.events());
        Optional<TenantTopics> tenants = settings.safeguards().tenantTopics()
                ? Optional.of(new TenantTopics(topics.submissions().name())) : Optional.empty();
        ProcessorSupplier<byte[], byte[], String, Object> submissions = () -> new InputRouterProcessor<JobRequest>(
                topics.submissions().valueSerde().deserializer(),
                Routes.submissions(JOB_ROUTES_STORE, settings.routing(), tenants), sinks, limits);
        tenants.ifPresent(t -> topology.source(TENANT_SUBMISSIONS_SOURCE, Serdes.ByteArray().deserializer(),
                Serdes.ByteArray().deserializer(), t.topics()));
        ProcessorSupplier<byte[], byte[], String, Object> telemetry = () -> new InputRouterProcessor<JobTelemetry>(
                topics.telemetry().valueSerde().deserializer(), Routes.telemetry(JOB_ROUTES_STORE), sinks,
                limits, authenticator(settings, "telemetry", JobTelemetry::getNodeId, null));
        ProcessorSupplier<byte[], byte[], String, Object> events = () -> new InputRouterProcessor<JobEvent>(
                topics.events().valueSerde().deserializer(), Routes.events(JOB_ROUTES_STORE), sinks,
                limits, authenticator(settings, "events", JobEvent::getNodeId, null));
        topology.processor(SUBMISSION_ROUTER, submissions, tenants.isPresent()
                ? new String[] {SUBMISSIONS_SOURCE, TENANT_SUBMISSIONS_SOURCE} : new String[] {SUBMISSIONS_SOURCE});
        topology.processor(TELEMETRY_ROUTER, telemetry, TELEMETRY_SOURCE);
        topology.processor(EVENT_ROUTER, events, EVENTS_SOURCE);
        String[] routers = {SUBMISSION_ROUTER, TELEMETRY_ROUTER, EVENT_ROUTER};
        sink(topology, JOB_ROUTER_INBOX_SINK, topics.inbox(), routers);
        sink(topology, JOB_ROUTER_STATUS_SINK, topics.status(), routers);
        sink(topology, JOB_ROUTER_DEADLETTER_SINK, topics.deadLetter(), routers);
    }

    /** The node authenticator of a router, or null when node authentication is off. */
    private static <V> NodeAuthenticator<V> authenticator(SchedulerSettings settings, String topicId,
                                                          Function<V, String> nodeIdOf, ToLongFunction<V> epochOf) {
        return settings.safeguards().nodeSecret().<NodeAuthenticator<V>>map(secret -> new NodeAuthenticator<>(topicId,
                nodeIdOf, epochOf, secret, ADMISSIONS_STORE)).orElse(null);
    }

    /**
     * With node authentication on, every instance keeps all admissions in a global store (a handful of records per
     * node, read by all three node-input routers whatever partitions they own).
     */
    private static void addAdmissions(Wiring topology, TopicCatalogue topics, SchedulerSettings settings) {
        if (settings.safeguards().nodeSecret().isEmpty()) {
            return;
        }
        ProcessorSupplier<String, NodeAdmission, Void, Void> admissions =
                () -> new AdmissionsProcessor(ADMISSIONS_STORE);
        topology.globalStore(new StoreSpec<>(ADMISSIONS_STORE, Serdes.String()), ADMISSIONS_SOURCE,
                new StringDeserializer(), topics.admissions().valueSerde().deserializer(), topics.admissions().name(),
                ADMISSIONS_PROCESSOR, admissions);
    }

    private static InputRouterProcessor.Limits limits(SchedulerSettings settings) {
        return new InputRouterProcessor.Limits(settings.safeguards().inputMaxBytes(),
                settings.safeguards().maxClockSkew().toMillis());
    }

    private static void addNodeRouter(Wiring topology, TopicCatalogue topics, SchedulerSettings settings) {
        InputRouterProcessor.Sinks sinks = new InputRouterProcessor.Sinks(NODE_ROUTER_INBOX_SINK, null,
                NODE_ROUTER_DEADLETTER_SINK);
        source(topology, HEARTBEATS_SOURCE, Serdes.ByteArray().deserializer(), topics.heartbeats());
        ProcessorSupplier<byte[], byte[], String, Object> heartbeats = () -> new InputRouterProcessor<NodeHeartbeat>(
                topics.heartbeats().valueSerde().deserializer(), Routes.heartbeats(NODE_CELLS_STORE), sinks,
                limits(settings), authenticator(settings, "heartbeats", NodeHeartbeat::getNodeId,
                        NodeHeartbeat::getEpoch));
        topology.processor(HEARTBEAT_ROUTER, heartbeats, HEARTBEATS_SOURCE);
        sink(topology, NODE_ROUTER_INBOX_SINK, topics.inbox(), HEARTBEAT_ROUTER);
        sink(topology, NODE_ROUTER_DEADLETTER_SINK, topics.deadLetter(), HEARTBEAT_ROUTER);
    }

    private static void addCellScheduler(Wiring topology, TopicCatalogue topics, SchedulerSettings settings,
                                         PolicyRegistry policies) {
        source(topology, INBOX_SOURCE, new StringDeserializer(), topics.inbox());
        topology.processor(CELL_SCHEDULER, cellScheduler(topics, settings, policies), INBOX_SOURCE);
        sink(topology, COMMANDS_SINK, topics.commands(), CELL_SCHEDULER);
        sink(topology, DECISIONS_SINK, topics.decisions(), CELL_SCHEDULER);
        sink(topology, CELL_STATUS_SINK, topics.status(), CELL_SCHEDULER);
        sink(topology, CELL_DEADLETTER_SINK, topics.deadLetter(), CELL_SCHEDULER);
    }

    /**
     * The cell scheduler processor alone (reads inbox bytes, forwards to the sinks named here), e.g. to replay an
     * inbox through a fresh processor with {@link #cellStores} outside a topology.
     */
    public static ProcessorSupplier<String, byte[], String, Object> cellScheduler(TopicCatalogue topics,
            SchedulerSettings settings, PolicyRegistry policies) {
        return cellScheduler(topics, settings, policies, fingerprint(settings));
    }

    /**
     * The cell scheduler processor alone, recording {@code fingerprint} as the configuration in force instead of the
     * one of {@code settings} and this build's version: audit replay runs it with the fingerprint a CONFIG record
     * says was in force (the recorded software version included).
     */
    public static ProcessorSupplier<String, byte[], String, Object> cellScheduler(TopicCatalogue topics,
            SchedulerSettings settings, PolicyRegistry policies, ConfigFingerprint fingerprint) {
        CellSchedulerProcessor.Names names = new CellSchedulerProcessor.Names(JOBS_STORE, FINISHED_JOBS_STORE,
                FINISHED_INDEX_STORE, NODES_STORE, ASSIGNMENTS_STORE, CELL_META_STORE, SERVICE_STORE,
                INTERFERENCE_STORE, COMMANDS_SINK, DECISIONS_SINK, CELL_STATUS_SINK, CELL_DEADLETTER_SINK);
        return () -> new CellSchedulerProcessor(names, topics.inbox().valueSerde().deserializer(),
                () -> policies.create(settings.policy()), settings.policy(), settings.passInterval(),
                settings.nodeTimeout(), settings.finishedRetention(), settings.attemptTimeouts(), fingerprint);
    }

    /** The configuration fingerprint the cells record in the audit log with these settings. */
    public static ConfigFingerprint fingerprint(SchedulerSettings settings) {
        return ConfigFingerprint.of(settings.policy(), settings.passInterval(), settings.nodeTimeout(),
                settings.finishedRetention(), settings.attemptTimeouts(), SoftwareVersion.current());
    }

    private static void addStores(Wiring topology) {
        topology.store(new StoreSpec<>(JOB_ROUTES_STORE, new BytesCodecSerde<>(JobRoute::encode, JobRoute::decode)),
                SUBMISSION_ROUTER, TELEMETRY_ROUTER, EVENT_ROUTER);
        topology.store(new StoreSpec<>(NODE_CELLS_STORE, Serdes.String()), HEARTBEAT_ROUTER);
        for (StoreSpec<?> store : cellStores()) {
            topology.store(store, CELL_SCHEDULER);
        }
    }

    /** The builders of the cell scheduler's stores, in a fixed order. */
    public static List<StoreBuilder<?>> cellStores(StoreOptions stores) {
        return cellStores().stream().<StoreBuilder<?>>map(stores::keyValue).toList();
    }

    /** The cell scheduler's stores, in a fixed order. */
    public static List<StoreSpec<?>> cellStores() {
        BytesCodecSerde<JobRecord> jobs = new BytesCodecSerde<>(StateCodecs::encodeJob, StateCodecs::decodeJob);
        return List.of(
                new StoreSpec<>(JOBS_STORE, jobs),
                new StoreSpec<>(FINISHED_JOBS_STORE, jobs),
                new StoreSpec<>(FINISHED_INDEX_STORE, Serdes.String()),
                new StoreSpec<>(NODES_STORE, new BytesCodecSerde<>(StateCodecs::encodeNode, StateCodecs::decodeNode)),
                new StoreSpec<>(ASSIGNMENTS_STORE,
                        new BytesCodecSerde<>(StateCodecs::encodeAssignment, StateCodecs::decodeAssignment)),
                new StoreSpec<>(SERVICE_STORE,
                        new BytesCodecSerde<>(ServiceDistribution::toBytes, ServiceDistribution::fromBytes)),
                new StoreSpec<>(INTERFERENCE_STORE,
                        new BytesCodecSerde<>(InterferenceMemory::toBytes, InterferenceMemory::fromBytes)),
                new StoreSpec<>(CELL_META_STORE,
                        new BytesCodecSerde<>(StateCodecs::encodeMeta, StateCodecs::decodeMeta)));
    }

    private static void source(Wiring topology, String name, Deserializer<?> keys, TopicSpec<String, ?> topic) {
        topology.source(name, keys, Serdes.ByteArray().deserializer(), topic.name());
    }

    private static void sink(Wiring topology, String name, TopicSpec<String, ?> topic, String... parents) {
        topology.sink(name, topic.name(), new StringSerializer(), topic.valueSerde().serializer(), parents);
    }
}
