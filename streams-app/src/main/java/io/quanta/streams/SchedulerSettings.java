package io.quanta.streams;

import io.quanta.core.config.ConfigKey;
import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.streams.router.CellRouting;
import io.quanta.topics.auth.NodeSecret;
import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The typed settings of the cell scheduler, read from the {@code scheduler.*} keys of a {@link QuantaConfig}
 * ({@link SchedulerConfigSection}). Immutable; the {@code with*} methods return changed copies (tests, simulator).
 *
 * @param applicationId    Kafka Streams application id
 * @param policy           the validated policy configuration (name and parameters)
 * @param passInterval     scheduling quantum in stream time
 * @param nodeTimeout      silence after which a node is lost (stream time)
 * @param finishedRetention how long a cell keeps an ended job's record (stream time), zero = forever
 * @param routing          job-to-cell routing rule
 * @param statusEnabled    whether the HTTP status API runs
 * @param statusHost       host the status API binds to and advertises
 * @param statusPort       port of the status API (0 = any free port)
 * @param stateDir         state directory, empty = default under java.io.tmpdir
 * @param commitInterval   Kafka Streams commit interval
 * @param poll             Kafka Streams poll.ms
 * @param standbyReplicas  standby replicas per task
 * @param streamThreads    stream threads per instance
 * @param safeguards       limits against hostile input and stuck attempts
 */
public record SchedulerSettings(String applicationId, PolicyConfig policy, Duration passInterval, Duration nodeTimeout,
                                Duration finishedRetention, CellRouting routing, boolean statusEnabled,
                                String statusHost, int statusPort, Optional<Path> stateDir, Duration commitInterval,
                                Duration poll, int standbyReplicas, int streamThreads, Safeguards safeguards) {

    public SchedulerSettings {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(routing, "routing");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(safeguards, "safeguards");
        if (passInterval.isNegative() || passInterval.isZero()) {
            throw new IllegalArgumentException("pass interval must be > 0, got " + passInterval);
        }
        if (nodeTimeout.isNegative() || nodeTimeout.isZero()) {
            throw new IllegalArgumentException("node timeout must be > 0, got " + nodeTimeout);
        }
        if (finishedRetention.isNegative()) {
            throw new IllegalArgumentException("finished-job retention must be >= 0, got " + finishedRetention);
        }
    }

    /** The settings of a configuration (validated by {@link SchedulerConfigSection}). */
    public static SchedulerSettings from(QuantaConfig config) {
        Map<String, String> params = new HashMap<>();
        params.put(PolicyConfigKeys.POLICY.name(), config.getString(SchedulerConfigSection.POLICY));
        for (ConfigKey<?> key : SchedulerConfigSection.policyParameters()) {
            String value = config.getString(SchedulerConfigSection.POLICY_PARAM_PREFIX + key.name());
            if (value != null) {
                params.put(key.name(), value);
            }
        }
        CellRouting.pairs(config.getList(SchedulerConfigSection.POLICY_QUOTAS))
                .forEach((tenant, gpus) -> params.put(PolicyConfigKeys.QUOTA_PREFIX + tenant, gpus));
        CellRouting routing = new CellRouting(CellRouting.pairs(config.getList(SchedulerConfigSection.TENANT_CELLS)),
                CellRouting.pairs(config.getList(SchedulerConfigSection.GPU_TYPE_CELLS)),
                config.getString(SchedulerConfigSection.DEFAULT_CELL));
        String stateDir = config.getString(SchedulerConfigSection.STATE_DIR);
        return new SchedulerSettings(config.getString(SchedulerConfigSection.APPLICATION_ID), PolicyConfig.of(params),
                Duration.ofMillis(config.getLong(SchedulerConfigSection.PASS_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(SchedulerConfigSection.NODE_TIMEOUT_MS)),
                Duration.ofHours(config.getLong(SchedulerConfigSection.FINISHED_RETENTION_HOURS)), routing,
                config.getBoolean(SchedulerConfigSection.STATUS_ENABLED),
                config.getString(SchedulerConfigSection.STATUS_HOST),
                config.getInt(SchedulerConfigSection.STATUS_PORT),
                stateDir == null || stateDir.isBlank() ? Optional.empty() : Optional.of(Path.of(stateDir)),
                Duration.ofMillis(config.getLong(SchedulerConfigSection.COMMIT_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(SchedulerConfigSection.POLL_MS)),
                config.getInt(SchedulerConfigSection.STANDBY_REPLICAS),
                config.getInt(SchedulerConfigSection.STREAM_THREADS),
                new Safeguards(config.getInt(SchedulerConfigSection.INPUT_MAX_BYTES),
                        Duration.ofMillis(config.getLong(SchedulerConfigSection.MAX_CLOCK_SKEW_MS)),
                        Duration.ofMillis(config.getLong(SchedulerConfigSection.START_TIMEOUT_MS)),
                        Duration.ofMillis(config.getLong(SchedulerConfigSection.SUSPEND_TIMEOUT_MS)),
                        nodeSecret(config), config.getBoolean(SchedulerConfigSection.TENANT_TOPICS)));
    }

    private static Optional<NodeSecret> nodeSecret(QuantaConfig config) {
        String file = config.getString(SchedulerConfigSection.NODE_SECRET_FILE);
        return file == null || file.isBlank() ? Optional.empty() : Optional.of(NodeSecret.read(Path.of(file)));
    }

    /** The defaults of every {@code scheduler.*} key. */
    public static SchedulerSettings defaults() {
        return from(QuantaConfig.of(Map.of()));
    }

    /** A copy with another policy configuration. */
    public SchedulerSettings withPolicy(PolicyConfig value) {
        return new SchedulerSettings(applicationId, value, passInterval, nodeTimeout, finishedRetention, routing,
                statusEnabled, statusHost, statusPort, stateDir, commitInterval, poll, standbyReplicas, streamThreads,
                safeguards);
    }

    /** A copy with the named policy and its default parameters. */
    public SchedulerSettings withPolicy(String name) {
        return withPolicy(PolicyConfig.defaults(name));
    }

    /** A copy with another pass interval. */
    public SchedulerSettings withPassInterval(Duration value) {
        return new SchedulerSettings(applicationId, policy, value, nodeTimeout, finishedRetention, routing,
                statusEnabled, statusHost, statusPort, stateDir, commitInterval, poll, standbyReplicas, streamThreads,
                safeguards);
    }

    /** A copy with another node timeout. */
    public SchedulerSettings withNodeTimeout(Duration value) {
        return new SchedulerSettings(applicationId, policy, passInterval, value, finishedRetention, routing,
                statusEnabled, statusHost, statusPort, stateDir, commitInterval, poll, standbyReplicas, streamThreads,
                safeguards);
    }

    /** A copy with another routing rule. */
    public SchedulerSettings withRouting(CellRouting value) {
        return new SchedulerSettings(applicationId, policy, passInterval, nodeTimeout, finishedRetention, value,
                statusEnabled, statusHost, statusPort, stateDir, commitInterval, poll, standbyReplicas, streamThreads,
                safeguards);
    }

    /** The attempt timeouts of the safeguards. */
    public io.quanta.streams.cell.AttemptTimeouts attemptTimeouts() {
        return new io.quanta.streams.cell.AttemptTimeouts(safeguards.startTimeout(), safeguards.suspendTimeout());
    }

    /** A copy with other safeguards. */
    public SchedulerSettings withSafeguards(Safeguards value) {
        return new SchedulerSettings(applicationId, policy, passInterval, nodeTimeout, finishedRetention, routing,
                statusEnabled, statusHost, statusPort, stateDir, commitInterval, poll, standbyReplicas, streamThreads,
                value);
    }

    /** A copy with another finished-job retention (zero keeps ended jobs' records forever). */
    public SchedulerSettings withFinishedRetention(Duration value) {
        return new SchedulerSettings(applicationId, policy, passInterval, nodeTimeout, value, routing, statusEnabled,
                statusHost, statusPort, stateDir, commitInterval, poll, standbyReplicas, streamThreads,
                safeguards);
    }
}
