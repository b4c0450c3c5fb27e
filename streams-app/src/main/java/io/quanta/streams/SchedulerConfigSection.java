package io.quanta.streams;

import io.quanta.core.config.ConfigKey;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.topics.config.ConfigSection;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The {@code scheduler.*} settings of the cell scheduler (policy and its parameters, pass interval, node timeout, cell
 * routing, status API, Kafka Streams knobs), contributed to the shared configuration. Every policy parameter of
 * {@link PolicyConfigKeys} is exposed as {@code scheduler.policy.<parameter>} and validated by the policy's own parser.
 */
public final class SchedulerConfigSection implements ConfigSection {

    public static final String APPLICATION_ID = "scheduler.application.id";
    public static final String POLICY = "scheduler.policy";
    /** Prefix of the policy parameters, e.g. {@code scheduler.policy.tiresias.thresholds}. */
    public static final String POLICY_PARAM_PREFIX = "scheduler.policy.";
    public static final String POLICY_QUOTAS = "scheduler.policy.quotas";
    public static final String PASS_INTERVAL_MS = "scheduler.pass.interval.ms";
    public static final String NODE_TIMEOUT_MS = "scheduler.node.timeout.ms";
    public static final String NODE_SECRET_FILE = "scheduler.node.secret.file";
    public static final String TENANT_TOPICS = "scheduler.tenant.topics";
    public static final String FINISHED_RETENTION_HOURS = "scheduler.finished.retention.hours";
    public static final String DEFAULT_CELL = "scheduler.routing.default.cell";
    public static final String TENANT_CELLS = "scheduler.routing.tenants";
    public static final String GPU_TYPE_CELLS = "scheduler.routing.gpu.types";
    public static final String STATUS_ENABLED = "scheduler.status.enabled";
    public static final String STATUS_HOST = "scheduler.status.host";
    public static final String STATUS_PORT = "scheduler.status.port";
    public static final String STATUS_TOKEN_FILE = "scheduler.status.token.file";
    public static final String STATUS_TLS_KEYSTORE = "scheduler.status.tls.keystore";
    public static final String STATUS_TLS_KEYSTORE_PASSWORD = "scheduler.status.tls.keystore.password";
    public static final String STATUS_TLS_TRUSTSTORE = "scheduler.status.tls.truststore";
    public static final String STATUS_TLS_TRUSTSTORE_PASSWORD = "scheduler.status.tls.truststore.password";
    public static final String STATUS_URL = "scheduler.status.url";
    public static final String STATE_DIR = "scheduler.state.dir";
    public static final String COMMIT_INTERVAL_MS = "scheduler.commit.interval.ms";
    public static final String POLL_MS = "scheduler.poll.ms";
    public static final String STANDBY_REPLICAS = "scheduler.standby.replicas";
    public static final String STREAM_THREADS = "scheduler.stream.threads";
    public static final String INPUT_MAX_BYTES = "scheduler.input.max.bytes";
    public static final String MAX_CLOCK_SKEW_MS = "scheduler.max.clock.skew.ms";
    public static final String START_TIMEOUT_MS = "scheduler.start.timeout.ms";
    public static final String SUSPEND_TIMEOUT_MS = "scheduler.suspend.timeout.ms";

    /** Default commit interval: under exactly-once it sets the latency floor (about 1.9 x per submission). */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 20;

    @Override
    public String name() {
        return "scheduler";
    }

    @Override
    public String description() {
        return "The cell scheduler (Kafka Streams app): policy, scheduling passes, node liveness, cell routing, "
                + "status API and exactly-once processing.";
    }

    @Override
    public Set<String> ownedPrefixes() {
        return Set.of("scheduler.");
    }

    @Override
    public Set<String> passThroughKeys() {
        return StreamsConfig.configDef().names();
    }

    @Override
    public ConfigDef definition() {
        ConfigDef def = new ConfigDef()
                .define(APPLICATION_ID, Type.STRING, "quanta-scheduler", new ConfigDef.NonEmptyString(),
                        Importance.HIGH, "Kafka Streams application.id: consumer group, prefix of the changelog "
                                + "topics. Instances with the same id share the cells.")
                .define(POLICY, Type.STRING, PolicyConfigKeys.POLICY.defaultValue(), policyParser(PolicyConfigKeys.POLICY),
                        Importance.HIGH, "Scheduling policy by name: " + PolicyConfigKeys.POLICY.allowed() + ".")
                .define(POLICY_QUOTAS, Type.LIST, "", pairs("tenant:gpus"), Importance.MEDIUM,
                        "Per-tenant GPU quotas as tenant:gpus pairs, e.g. vision:64,nlp:32 (quanta policy).")
                .define(PASS_INTERVAL_MS, Type.LONG, 10_000L, Range.atLeast(1), Importance.MEDIUM,
                        "Scheduling quantum in stream-time milliseconds: a punctuator runs a pass this often when "
                                + "the state changed or the policy asked to be woken, and checks node liveness.")
                .define(NODE_TIMEOUT_MS, Type.LONG, 30_000L, Range.atLeast(1), Importance.MEDIUM,
                        "A node silent for longer than this (stream time) is lost; its jobs are requeued.")
                .define(NODE_SECRET_FILE, Type.STRING, null, Importance.HIGH,
                        "Node authentication: a file holding the node secret (64 hex digits; 'quanta nodes secret' "
                                + "makes one). When set, heartbeats, job events and telemetry count only from nodes "
                                + "admitted on quanta.nodes.admissions ('quanta nodes admit NODE', which prints the "
                                + "node's key for its node.auth.key) and signed with that key (header "
                                + "quanta-node-mac); forged, unsigned or unadmitted records, and heartbeats whose "
                                + "epoch is more than a day ahead of their time, go to the dead letters. Unset: off.")
                .define(TENANT_TOPICS, Type.BOOLEAN, false, Importance.HIGH,
                        "Tenant authentication: each tenant submits and cancels on its own topic "
                                + "<submissions topic>.<tenant> (created with 'quanta topics add-tenant', writable only by "
                                + "the tenant's principal under 'quanta acls'); the tenant of a job is the one whose "
                                + "topic it came on, a submission naming another tenant is REJECTED, a cancel of "
                                + "another tenant's job is refused (dead letter, job unaffected), and records on the "
                                + "shared submissions topic are dead-lettered. The CLI writes to the tenant topic when "
                                + "this is set in its configuration. Off: the tenant field is trusted.")
                .define(FINISHED_RETENTION_HOURS, Type.LONG, 720L, Range.atLeast(0), Importance.MEDIUM,
                        "How long (stream time) a cell keeps the record of a job that ended (finished, failed, "
                                + "cancelled or rejected) for status queries and duplicate detection; checked once "
                                + "per stream hour. 0 keeps them forever. The decisions topic keeps every decision and "
                                + "the compacted status topic each job's last status regardless.")
                .define(INPUT_MAX_BYTES, Type.INT, 64 * 1024, Range.atLeast(1024), Importance.LOW,
                        "Largest input value (bytes) the routers decode; a larger submission, heartbeat, event or "
                                + "telemetry record goes to the dead-letter topic unread.")
                .define(MAX_CLOCK_SKEW_MS, Type.LONG, 60_000L, Range.atLeast(1), Importance.MEDIUM,
                        "An input record stamped more than this ahead of the scheduler's own clock goes to the "
                                + "dead-letter topic with the skew as reason, so that no producer's clock can move a "
                                + "cell's time (input topics use LogAppendTime by default; this guards topics that "
                                + "still use CreateTime).")
                .define(START_TIMEOUT_MS, Type.LONG, 300_000L, Range.atLeast(0), Importance.MEDIUM,
                        "An attempt that has not reported STARTED this long (stream time) after its START is given "
                                + "up: its nodes are told to KILL it and it counts as a failed attempt (retried up to "
                                + "the job's maxRetries; a REQUEUE or FINISH decision says why). 0 = off.")
                .define(SUSPEND_TIMEOUT_MS, Type.LONG, 300_000L, Range.atLeast(0), Importance.MEDIUM,
                        "An attempt that has not reported SUSPENDED this long (stream time) after its SUSPEND is "
                                + "killed and the job requeued from its previous checkpoint (a REQUEUE decision says "
                                + "why). 0 = off.")
                .define(DEFAULT_CELL, Type.STRING, "cell-0", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                        "Cell of jobs that no tenant or GPU-type rule routes.")
                .define(TENANT_CELLS, Type.LIST, "", pairs("tenant:cell"), Importance.MEDIUM,
                        "Routing rules tenant:cell, e.g. vision:cell-a; checked first.")
                .define(GPU_TYPE_CELLS, Type.LIST, "", pairs("gpuType:cell"), Importance.MEDIUM,
                        "Routing rules gpuType:cell for jobs that require a GPU model, e.g. A100:cell-b; checked "
                                + "after the tenant rules.")
                .define(STATUS_ENABLED, Type.BOOLEAN, true, Importance.LOW, "Serve the HTTP status API.")
                .define(STATUS_HOST, Type.STRING, "127.0.0.1", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                        "Host the status API binds to and advertises to other instances (application.server).")
                .define(STATUS_PORT, Type.INT, 8787, Range.between(0, 65535), Importance.MEDIUM,
                        "Port of the status API; 0 picks a free port.")
                .define(STATUS_TOKEN_FILE, Type.STRING, null, Importance.HIGH,
                        "File holding the status API's bearer token (one line of letters, digits and -._~+/=, at "
                                + "least 16 characters). Set: every request but GET /health, GET /dashboard (the page "
                                + "itself, which holds no data) and GET / needs 'Authorization: Bearer <token>', "
                                + "else 401; instances forward queries to each other with it, so give all instances "
                                + "the same token. Unset: no authentication (keep the API on loopback).")
                .define(STATUS_TLS_KEYSTORE, Type.STRING, null, Importance.HIGH,
                        "PKCS12 key store with the status API's private key and certificate (which must name "
                                + "scheduler.status.host, the address other instances forward to). Set: the API "
                                + "serves HTTPS only. Unset: plain HTTP.")
                .define(STATUS_TLS_KEYSTORE_PASSWORD, Type.PASSWORD, null, Importance.HIGH,
                        "Password of scheduler.status.tls.keystore (and of its key); never printed.")
                .define(STATUS_TLS_TRUSTSTORE, Type.STRING, null, Importance.MEDIUM,
                        "PKCS12 trust store whose certificates this instance trusts when it forwards a query to "
                                + "another instance over HTTPS. Unset: the certificates of "
                                + "scheduler.status.tls.keystore (instances sharing one certificate trust each other).")
                .define(STATUS_TLS_TRUSTSTORE_PASSWORD, Type.PASSWORD, null, Importance.MEDIUM,
                        "Password of scheduler.status.tls.truststore; never printed.")
                .define(STATUS_URL, Type.STRING, null, Importance.LOW,
                        "For clients: the status API of a scheduler instance (http://host:port). Set: quanta "
                                + "status JOB and quanta queue ask it (one HTTP request) before reading the job status "
                                + "topic, which they still read when it does not answer with the job (not held there, "
                                + "a token required, not up). quanta local writes it into client.properties.")
                .define(STATE_DIR, Type.STRING, null, Importance.MEDIUM,
                        "Directory of the RocksDB state stores; default: quanta-streams under java.io.tmpdir.")
                .define(COMMIT_INTERVAL_MS, Type.LONG, DEFAULT_COMMIT_INTERVAL_MS, Range.atLeast(1), Importance.MEDIUM,
                        "Kafka Streams commit.interval.ms. Under exactly-once each hop costs about one interval, "
                                + "so this sets the submission-to-start latency floor; 20 ms gives a p99 under "
                                + "250 ms on 2 cores, 100 ms (Kafka's default) does not.")
                .define(POLL_MS, Type.LONG, 5L, Range.atLeast(0), Importance.LOW,
                        "Kafka Streams poll.ms: how long a poll blocks; small values cut latency at low input rates.")
                .define(STANDBY_REPLICAS, Type.INT, 1, Range.atLeast(0), Importance.MEDIUM,
                        "num.standby.replicas: warm copies of each cell's state on other instances, so that a crashed "
                                + "instance's cells resume after a rebalance instead of a restore from the changelogs. "
                                + "No effect with one instance; with more, each instance also applies the changelogs "
                                + "of the cells it stands by for. 0 turns it off.")
                .define(STREAM_THREADS, Type.INT, 1, Range.atLeast(1), Importance.LOW, "num.stream.threads.");
        for (ConfigKey<?> key : PolicyConfigKeys.ALL) {
            if (key != PolicyConfigKeys.POLICY) {
                def.define(POLICY_PARAM_PREFIX + key.name(), Type.STRING, null, policyParser(key), Importance.LOW,
                        key.doc() + " Policy parameter " + key.name() + " (default " + key.defaultValue() + ").");
            }
        }
        return def;
    }

    /** The policy parameter names (without prefix) that have a {@code scheduler.policy.*} key. */
    static List<ConfigKey<?>> policyParameters() {
        return PolicyConfigKeys.ALL.stream().filter(k -> k != PolicyConfigKeys.POLICY).toList();
    }

    private static ConfigDef.Validator policyParser(ConfigKey<?> key) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value == null) {
                    return;
                }
                try {
                    key.parse(value.toString());
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(name, value, e.getMessage());
                }
            }

            @Override
            public String toString() {
                return key.allowed();
            }
        };
    }

    private static ConfigDef.Validator pairs(String shape) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                @SuppressWarnings("unchecked")
                List<String> items = (List<String>) value;
                for (String item : items) {
                    int colon = item.indexOf(':');
                    if (colon <= 0 || colon == item.length() - 1 || item.indexOf(':', colon + 1) >= 0) {
                        throw new ConfigException(name, value, "each item must look like " + shape + ", got '"
                                + item + "'");
                    }
                }
            }

            @Override
            public String toString() {
                return "comma-separated " + shape + " pairs";
            }
        };
    }
}
