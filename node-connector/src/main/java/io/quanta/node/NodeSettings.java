package io.quanta.node;

import io.quanta.node.runner.SandboxSettings;
import io.quanta.topics.auth.NodeMac;
import io.quanta.topics.config.QuantaConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The typed settings of a node connector, read from the {@code node.*} section of a {@link QuantaConfig} (see
 * {@link NodeConfigSection} for each key's meaning and default).
 *
 * @param nodeId node id
 * @param cellId cell
 * @param rack rack
 * @param backend how jobs run
 * @param gpus virtual GPUs (simulated)
 * @param gpuModel virtual GPU model (simulated)
 * @param gpuMemoryMiB virtual GPU memory, 0 = the model's (simulated)
 * @param nvidiaSmi nvidia-smi binary (process)
 * @param workDir local state directory
 * @param heartbeatInterval between heartbeats
 * @param suspendDeadline SIGUSR1 to SIGTERM
 * @param termGrace SIGTERM to SIGKILL
 * @param telemetryWindow telemetry aggregation window
 * @param telemetryPort UDP port, 0 = any
 * @param stderrLines stderr lines in FAILED events
 * @param simSpeed duration compression factor (simulated)
 * @param throughputModel {@code standard} or {@code tiresias-compatible} (simulated)
 * @param outboxCapacity records kept during a broker outage
 * @param shutdownTimeout delivery wait on shutdown
 * @param attemptRetention how long ended attempts (records, logs, working directories) are kept; zero = forever
 * @param fenceTimeout without an acknowledged heartbeat for this long, the connector kills its attempts (self-fencing)
 * @param sandbox how the process backend confines jobs
 * @param authKey this node's signing key ({@code node.auth.key}); empty = records are not signed
 */
public record NodeSettings(String nodeId, String cellId, String rack, Backend backend, int gpus, String gpuModel,
                           int gpuMemoryMiB, String nvidiaSmi, Path workDir, Duration heartbeatInterval,
                           Duration suspendDeadline, Duration termGrace, Duration telemetryWindow, int telemetryPort,
                           int stderrLines, double simSpeed, String throughputModel, int outboxCapacity,
                           Duration shutdownTimeout, Duration attemptRetention, Duration fenceTimeout,
                           SandboxSettings sandbox, Optional<NodeKey> authKey) {

    /**
     * The scheduler's node timeout key, read when the same configuration sets it (the connector does not depend on the
     * scheduler's module, so the key is named here).
     */
    static final String SCHEDULER_NODE_TIMEOUT_MS = "scheduler.node.timeout.ms";

    /** How a node runs jobs. */
    public enum Backend {
        /** Real processes on real GPUs. */
        PROCESS,
        /** Virtual GPUs, progress from the throughput model. */
        SIMULATED
    }

    public NodeSettings {
        Objects.requireNonNull(nodeId, "nodeId");
        if (nodeId.isBlank()) {
            throw new IllegalArgumentException("node id must not be blank");
        }
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(fenceTimeout, "fenceTimeout");
        Objects.requireNonNull(sandbox, "sandbox");
        Objects.requireNonNull(authKey, "authKey");
        if (fenceTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException(NodeConfigSection.FENCE_TIMEOUT_MS + " (" + fenceTimeout.toMillis()
                    + " ms) must be at least two heartbeat intervals (" + heartbeatInterval.toMillis() + " ms each)");
        }
    }

    /** The settings of a configuration; a missing node id defaults to the host name. */
    public static NodeSettings from(QuantaConfig config) {
        String id = config.getString(NodeConfigSection.ID);
        String nodeId = id == null || id.isBlank() ? hostName() : id;
        String dir = config.getString(NodeConfigSection.WORK_DIR);
        Path workDir = dir == null || dir.isBlank()
                ? Path.of(System.getProperty("user.home"), ".quanta", "nodes", nodeId) : Path.of(dir);
        return new NodeSettings(nodeId,
                config.getString(NodeConfigSection.CELL),
                config.getString(NodeConfigSection.RACK),
                Backend.valueOf(config.getString(NodeConfigSection.BACKEND).toUpperCase(Locale.ROOT)),
                config.getInt(NodeConfigSection.GPUS),
                config.getString(NodeConfigSection.GPU_MODEL),
                config.getInt(NodeConfigSection.GPU_MEMORY_MIB),
                config.getString(NodeConfigSection.NVIDIA_SMI),
                workDir,
                millis(config, NodeConfigSection.HEARTBEAT_INTERVAL_MS),
                millis(config, NodeConfigSection.SUSPEND_DEADLINE_MS),
                millis(config, NodeConfigSection.TERM_GRACE_MS),
                millis(config, NodeConfigSection.TELEMETRY_WINDOW_MS),
                config.getInt(NodeConfigSection.TELEMETRY_PORT),
                config.getInt(NodeConfigSection.STDERR_LINES),
                config.getDouble(NodeConfigSection.SIM_SPEED),
                config.getString(NodeConfigSection.SIM_THROUGHPUT_MODEL),
                config.getInt(NodeConfigSection.OUTBOX_CAPACITY),
                millis(config, NodeConfigSection.SHUTDOWN_TIMEOUT_MS),
                Duration.ofHours(config.getLong(NodeConfigSection.ATTEMPT_RETENTION_HOURS)),
                fenceTimeout(config),
                sandbox(config),
                Optional.ofNullable(config.getPassword(NodeConfigSection.AUTH_KEY))
                        .map(p -> new NodeKey(NodeMac.fromHex(p.value()))));
    }

    /** A node's signing key; {@link #toString()} hides it. */
    public static final class NodeKey {
        private final byte[] bytes;

        public NodeKey(byte[] bytes) {
            if (bytes.length < 16) {
                throw new IllegalArgumentException(NodeConfigSection.AUTH_KEY + " is too short (" + bytes.length
                        + " bytes): use the key 'quanta nodes admit' printed");
            }
            this.bytes = bytes.clone();
        }

        /** The key bytes. */
        public byte[] bytes() {
            return bytes.clone();
        }

        @Override
        public String toString() {
            return "NodeKey[hidden]";
        }
    }

    private static SandboxSettings sandbox(QuantaConfig config) {
        return new SandboxSettings(config.getList(NodeConfigSection.JOB_ENV_PASSTHROUGH),
                optionalString(config, NodeConfigSection.JOB_SECRETS_DIR).map(Path::of),
                config.getList(NodeConfigSection.JOB_CHECKPOINT_ROOTS).stream().map(Path::of).toList(),
                optionalString(config, NodeConfigSection.JOB_USER),
                optionalString(config, NodeConfigSection.JOB_CGROUP_PARENT).map(Path::of),
                config.getLong(NodeConfigSection.JOB_MEMORY_MAX_BYTES),
                config.getLong(NodeConfigSection.JOB_PIDS_MAX),
                config.getLong(NodeConfigSection.JOB_LOG_MAX_BYTES));
    }

    private static java.util.Optional<String> optionalString(QuantaConfig config, String key) {
        String value = config.getString(key);
        return value == null || value.isBlank() ? java.util.Optional.empty() : java.util.Optional.of(value.strip());
    }

    /**
     * The fence timeout: as configured, or by default 20 s capped at two thirds of a scheduler node timeout set in the
     * same configuration. The fence must come before the scheduler gives the node's attempts to another node, so a
     * configured fence timeout that is not below a node timeout set beside it is refused.
     */
    static Duration fenceTimeout(QuantaConfig config) {
        Object nodeTimeout = config.originals().get(SCHEDULER_NODE_TIMEOUT_MS);
        Long schedulerTimeout = nodeTimeout == null ? null : Long.valueOf(nodeTimeout.toString().strip());
        boolean set = config.originals().containsKey(NodeConfigSection.FENCE_TIMEOUT_MS);
        long fence = config.getLong(NodeConfigSection.FENCE_TIMEOUT_MS);
        if (schedulerTimeout == null) {
            return Duration.ofMillis(fence);
        }
        if (!set) {
            return Duration.ofMillis(Math.min(fence, schedulerTimeout * 2 / 3));
        }
        if (fence >= schedulerTimeout) {
            throw new IllegalArgumentException(NodeConfigSection.FENCE_TIMEOUT_MS + "=" + fence + " must be below "
                    + SCHEDULER_NODE_TIMEOUT_MS + "=" + schedulerTimeout + ": a connector cut off from the broker must "
                    + "kill its jobs before the scheduler starts them elsewhere");
        }
        return Duration.ofMillis(fence);
    }

    private static Duration millis(QuantaConfig config, String key) {
        return Duration.ofMillis(config.getLong(key));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
