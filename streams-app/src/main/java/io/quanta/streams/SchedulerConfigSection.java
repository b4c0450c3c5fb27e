package io.quanta.streams;

import io.quanta.core.config.ConfigKey;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.topics.config.ConfigSection;
import io.quanta.topics.config.SectionKeys;
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

    /** Prefix of the policy parameters, e.g. {@code scheduler.policy.tiresias.thresholds}. */
    public static final String POLICY_PARAM_PREFIX = "scheduler.policy.";

    /** Default commit interval: under exactly-once it sets the latency floor (about 1.9 x per submission). */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 20;

    private static final SectionKeys KEYS = new SectionKeys();

    public static final String APPLICATION_ID = KEYS.define("scheduler.application.id",
            Type.STRING, "quanta-scheduler", new ConfigDef.NonEmptyString(),
            Importance.HIGH, "Kafka Streams application.id: consumer group, prefix of the changelog "
                    + "topics. Instances with the same id share the cells.");
    public static final String POLICY = KEYS.define("scheduler.policy",
            Type.STRING, PolicyConfigKeys.POLICY.defaultValue(), policyParser(PolicyConfigKeys.POLICY),
            Importance.HIGH, "Scheduling policy by name: " + PolicyConfigKeys.POLICY.allowed() + ".");
    public static final String POLICY_QUOTAS = KEYS.define("scheduler.policy.quotas",
            Type.LIST, "", pairs("tenant:gpus"), Importance.MEDIUM,
            "Per-tenant GPU quotas as tenant:gpus pairs, e.g. vision:64,nlp:32 (quanta policy).");
    public static final String PASS_INTERVAL_MS = KEYS.define("scheduler.pass.interval.ms",
            Type.LONG, 10_000L, Range.atLeast(1), Importance.MEDIUM,
            "Scheduling quantum in stream-time milliseconds: a punctuator runs a pass this often when "
                    + "the state changed or the policy asked to be woken, and checks node liveness.");
    public static final String NODE_TIMEOUT_MS = KEYS.define("scheduler.node.timeout.ms",
            Type.LONG, 30_000L, Range.atLeast(1), Importance.MEDIUM,
            "A node silent for longer than this (stream time) is lost; its jobs are requeued.");
    public static final String NODE_SECRET_FILE = KEYS.define("scheduler.node.secret.file",
            Type.STRING, null, Importance.HIGH,
            "Node authentication: a file holding the node secret (64 hex digits; 'quanta nodes secret' "
                    + "makes one). When set, heartbeats, job events and telemetry count only from nodes "
                    + "admitted on quanta.nodes.admissions ('quanta nodes admit NODE', which prints the "
                    + "node's key for its node.auth.key) and signed with that key (header "
                    + "quanta-node-mac); forged, unsigned or unadmitted records, and heartbeats whose "
                    + "epoch is more than a day ahead of their time, go to the dead letters. Unset: off.");
    public static final String TENANT_TOPICS = KEYS.define("scheduler.tenant.topics",
            Type.BOOLEAN, false, Importance.HIGH,
            "Tenant authentication: each tenant submits and cancels on its own topic "
                    + "<submissions topic>.<tenant> (created with 'quanta topics add-tenant', writable only by "
                    + "the tenant's principal under 'quanta acls'); the tenant of a job is the one whose "
                    + "topic it came on, a submission naming another tenant is REJECTED, a cancel of "
                    + "another tenant's job is refused (dead letter, job unaffected), and records on the "
                    + "shared submissions topic are dead-lettered. The CLI writes to the tenant topic when "
                    + "this is set in its configuration. Off: the tenant field is trusted.");
    public static final String FINISHED_RETENTION_HOURS = KEYS.define("scheduler.finished.retention.hours",
            Type.LONG, 720L, Range.atLeast(0), Importance.MEDIUM,
            "How long (stream time) a cell keeps the record of a job that ended (finished, failed, "
                    + "cancelled or rejected) for status queries and duplicate detection; checked once "
                    + "per stream hour. 0 keeps them forever. The decisions topic keeps every decision and "
                    + "the compacted status topic each job's last status regardless.");
    public static final String INPUT_MAX_BYTES = KEYS.define("scheduler.input.max.bytes",
            Type.INT, 64 * 1024, Range.atLeast(1024), Importance.LOW,
            "Largest input value (bytes) the routers decode; a larger submission, heartbeat, event or "
                    + "telemetry record goes to the dead-letter topic unread.");
    public static final String MAX_CLOCK_SKEW_MS = KEYS.define("scheduler.max.clock.skew.ms",
            Type.LONG, 60_000L, Range.atLeast(1), Importance.MEDIUM,
            "An input record stamped more than this ahead of the scheduler's own clock goes to the "
                    + "dead-letter topic with the skew as reason, so that no producer's clock can move a "
                    + "cell's time (input topics use LogAppendTime by default; this guards topics that "
                    + "still use CreateTime).");
    public static final String START_TIMEOUT_MS = KEYS.define("scheduler.start.timeout.ms",
            Type.LONG, 300_000L, Range.atLeast(0), Importance.MEDIUM,
            "An attempt that has not reported STARTED this long (stream time) after its START is given "
                    + "up: its nodes are told to KILL it and it counts as a failed attempt (retried up to "
                    + "the job's maxRetries; a REQUEUE or FINISH decision says why). 0 = off.");
    public static final String SUSPEND_TIMEOUT_MS = KEYS.define("scheduler.suspend.timeout.ms",
            Type.LONG, 300_000L, Range.atLeast(0), Importance.MEDIUM,
            "An attempt that has not reported SUSPENDED this long (stream time) after its SUSPEND is "
                    + "killed and the job requeued from its previous checkpoint (a REQUEUE decision says "
                    + "why). 0 = off.");
    public static final String DEFAULT_CELL = KEYS.define("scheduler.routing.default.cell",
            Type.STRING, "cell-0", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
            "Cell of jobs that no tenant or GPU-type rule routes.");
    public static final String TENANT_CELLS = KEYS.define("scheduler.routing.tenants",
            Type.LIST, "", pairs("tenant:cell"), Importance.MEDIUM,
            "Routing rules tenant:cell, e.g. vision:cell-a; checked first.");
    public static final String GPU_TYPE_CELLS = KEYS.define("scheduler.routing.gpu.types",
            Type.LIST, "", pairs("gpuType:cell"), Importance.MEDIUM,
            "Routing rules gpuType:cell for jobs that require a GPU model, e.g. A100:cell-b; checked "
                    + "after the tenant rules.");
    public static final String STATUS_ENABLED = KEYS.define("scheduler.status.enabled",
            Type.BOOLEAN, true, Importance.LOW, "Serve the HTTP status API.");
    public static final String STATUS_HOST = KEYS.define("scheduler.status.host",
            Type.STRING, "127.0.0.1", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
            "Host the status API binds to and advertises to other instances (application.server).");
    public static final String STATUS_PORT = KEYS.define("scheduler.status.port",
            Type.INT, 8787, Range.between(0, 65535), Importance.MEDIUM,
            "Port of the status API; 0 picks a free port.");
    public static final String STATUS_TOKEN_FILE = KEYS.define("scheduler.status.token.file",
            Type.STRING, null, Importance.HIGH,
            "File holding the status API's bearer token (one line of letters, digits and -._~+/=, at "
                    + "least 16 characters). Set: every request but GET /health, GET /dashboard (the page "
                    + "itself, which holds no data) and GET / needs 'Authorization: Bearer <token>', "
                    + "else 401; instances forward queries to each other with it, so give all instances "
                    + "the same token. Unset: no authentication (keep the API on loopback).");
    public static final String STATUS_TLS_KEYSTORE = KEYS.define("scheduler.status.tls.keystore",
            Type.STRING, null, Importance.HIGH,
            "PKCS12 key store with the status API's private key and certificate (which must name "
                    + "scheduler.status.host, the address other instances forward to). Set: the API "
                    + "serves HTTPS only. Unset: plain HTTP.");
    public static final String STATUS_TLS_KEYSTORE_PASSWORD = KEYS.define("scheduler.status.tls.keystore.password",
            Type.PASSWORD, null, Importance.HIGH,
            "Password of scheduler.status.tls.keystore (and of its key); never printed.");
    public static final String STATUS_TLS_TRUSTSTORE = KEYS.define("scheduler.status.tls.truststore",
            Type.STRING, null, Importance.MEDIUM,
            "PKCS12 trust store whose certificates this instance trusts when it forwards a query to "
                    + "another instance over HTTPS. Unset: the certificates of "
                    + "scheduler.status.tls.keystore (instances sharing one certificate trust each other).");
    public static final String STATUS_TLS_TRUSTSTORE_PASSWORD = KEYS.define("scheduler.status.tls.truststore.password",
            Type.PASSWORD, null, Importance.MEDIUM,
            "Password of scheduler.status.tls.truststore; never printed.");
    public static final String STATUS_URL = KEYS.define("scheduler.status.url", Type.STRING, null, Importance.LOW,
            "For clients: the status API of a scheduler instance (http://host:port). Set: quanta "
                    + "status JOB and quanta queue ask it (one HTTP request) before reading the job status "
                    + "topic, which they still read when it does not answer with the job (not held there, "
                    + "a token required, not up). quanta local writes it into client.properties.");
    public static final String STATE_DIR = KEYS.define("scheduler.state.dir", Type.STRING, null, Importance.MEDIUM,
            "Directory of the RocksDB state stores; default: quanta-streams under java.io.tmpdir.");
    public static final String COMMIT_INTERVAL_MS = KEYS.define("scheduler.commit.interval.ms",
            Type.LONG, DEFAULT_COMMIT_INTERVAL_MS, Range.atLeast(1), Importance.MEDIUM,
            "Kafka Streams commit.interval.ms. Under exactly-once each hop costs about one interval, "
                    + "so this sets the submission-to-start latency floor; 20 ms gives a p99 under "
                    + "250 ms on 2 cores, 100 ms (Kafka's default) does not.");
    public static final String POLL_MS = KEYS.define("scheduler.poll.ms",
            Type.LONG, 5L, Range.atLeast(0), Importance.LOW,
            "Kafka Streams poll.ms: how long a poll blocks; small values cut latency at low input rates.");
    public static final String STANDBY_REPLICAS = KEYS.define("scheduler.standby.replicas",
            Type.INT, 1, Range.atLeast(0), Importance.MEDIUM,
            "num.standby.replicas: warm copies of each cell's state on other instances, so that a crashed "
                    + "instance's cells resume after a rebalance instead of a restore from the changelogs. "
                    + "No effect with one instance; with more, each instance also applies the changelogs "
                    + "of the cells it stands by for. 0 turns it off.");
    public static final String STREAM_THREADS = KEYS.define("scheduler.stream.threads",
            Type.INT, 1, Range.atLeast(1), Importance.LOW, "num.stream.threads.");


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
        ConfigDef def = KEYS.definition();
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
