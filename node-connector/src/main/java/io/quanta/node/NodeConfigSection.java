package io.quanta.node;

import io.quanta.node.runner.SandboxSettings;
import io.quanta.topics.config.ConfigSection;
import io.quanta.topics.config.SectionKeys;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;

/** Settings of a node connector ({@code node.*}): identity, backend, GPUs, work directory, timings. */
public final class NodeConfigSection implements ConfigSection {

    private static final SectionKeys KEYS = new SectionKeys();

    public static final String ID = KEYS.define("node.id", Type.STRING, null, Importance.HIGH,
            "Node id: the key of its heartbeats and commands. Default: the host name.");
    public static final String CELL = KEYS.define("node.cell",
            Type.STRING, "cell-0", new ConfigDef.NonEmptyString(), Importance.HIGH,
            "Cell the node belongs to (the scheduler schedules a cell's nodes together). The default is "
                    + "the scheduler's default cell (scheduler.routing.default.cell), so a node started "
                    + "without a cell gets the jobs no routing rule sends elsewhere.");
    public static final String RACK = KEYS.define("node.rack",
            Type.STRING, "default", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
            "Rack (network domain) of the node, for locality-aware placement.");
    public static final String BACKEND = KEYS.define("node.backend",
            Type.STRING, "process", ValidString.in("process", "simulated"), Importance.HIGH,
            "process: real jobs on the GPUs nvidia-smi lists; simulated: virtual GPUs and jobs.");
    public static final String GPUS = KEYS.define("node.gpus", Type.INT, 8, Range.atLeast(1), Importance.MEDIUM,
            "Number of virtual GPUs (simulated backend).");
    public static final String GPU_MODEL = KEYS.define("node.gpu.model",
            Type.STRING, "V100", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
            "Model of the virtual GPUs (simulated backend), e.g. V100, A100, T4.");
    public static final String GPU_MEMORY_MIB = KEYS.define("node.gpu.memory.mib",
            Type.INT, 0, Range.atLeast(0), Importance.LOW,
            "Memory of a virtual GPU in MiB (simulated backend); 0 = the model's nominal memory.");
    public static final String NVIDIA_SMI = KEYS.define("node.nvidia.smi",
            Type.STRING, "nvidia-smi", new ConfigDef.NonEmptyString(), Importance.LOW,
            "nvidia-smi binary (process backend): a name on the PATH or a path.");
    public static final String WORK_DIR = KEYS.define("node.work.dir", Type.STRING, null, Importance.MEDIUM,
            "Local state: attempt records, job working directories, default checkpoints. "
                    + "Default: ~/.quanta/nodes/<node.id>.");
    public static final String HEARTBEAT_INTERVAL_MS = KEYS.define("node.heartbeat.interval.ms",
            Type.LONG, 5_000L, Range.atLeast(10), Importance.MEDIUM,
            "Interval between heartbeats.");
    public static final String SUSPEND_DEADLINE_MS = KEYS.define("node.suspend.deadline.ms",
            Type.LONG, 60_000L, Range.atLeast(1), Importance.MEDIUM,
            "How long a job may take to checkpoint and exit after SIGUSR1 before SIGTERM "
                    + "(papers: a checkpoint takes seconds to a minute).");
    public static final String TERM_GRACE_MS = KEYS.define("node.term.grace.ms",
            Type.LONG, 10_000L, Range.atLeast(1), Importance.LOW,
            "How long after SIGTERM before SIGKILL.");
    public static final String TELEMETRY_WINDOW_MS = KEYS.define("node.telemetry.window.ms",
            Type.LONG, 10_000L, Range.atLeast(10), Importance.MEDIUM,
            "Window over which job progress is aggregated into one JobTelemetry record.");
    public static final String TELEMETRY_PORT = KEYS.define("node.telemetry.port",
            Type.INT, 0, Range.between(0, 65_535), Importance.LOW,
            "Loopback UDP port where jobs report progress; 0 = any free port (given to jobs in "
                    + "QUANTA_TELEMETRY).");
    public static final String STDERR_LINES = KEYS.define("node.stderr.lines",
            Type.INT, 20, Range.between(0, 1_000), Importance.LOW,
            "Last lines of stderr carried by a FAILED event.");
    public static final String SIM_SPEED = KEYS.define("node.sim.speed",
            Type.DOUBLE, 1.0, Range.atLeast(0.001), Importance.MEDIUM,
            "Simulated backend: durations are divided by this factor (600 runs a 10-minute job in 1 s).");
    public static final String SIM_THROUGHPUT_MODEL = KEYS.define("node.sim.throughput.model", Type.STRING, "standard",
            ValidString.in("standard", "tiresias-compatible"), Importance.LOW,
            "Simulated backend: throughput model (tiresias-compatible = no locality or interference "
                    + "slowdown, free preemption).");
    public static final String OUTBOX_CAPACITY = KEYS.define("node.outbox.capacity",
            Type.INT, 100_000, Range.atLeast(100), Importance.LOW,
            "Records kept while the broker is unreachable; beyond it the oldest telemetry is dropped "
                    + "(job events are never dropped).");
    public static final String SHUTDOWN_TIMEOUT_MS = KEYS.define("node.shutdown.timeout.ms",
            Type.LONG, 10_000L, Range.atLeast(0), Importance.LOW,
            "How long a clean shutdown waits to deliver the last events and heartbeat.");
    public static final String ATTEMPT_RETENTION_HOURS = KEYS.define("node.attempts.retention.hours",
            Type.LONG, 168L, Range.atLeast(0), Importance.MEDIUM,
            "Hours an ended attempt's record, logs and working directory stay in the work directory "
                    + "(checked at start and every hour); a job whose newest attempt here completed or "
                    + "failed also loses its default checkpoint then. Suspended jobs keep their "
                    + "checkpoint. 0 = keep everything.");
    public static final String FENCE_TIMEOUT_MS = KEYS.define("node.fence.timeout.ms",
            Type.LONG, 20_000L, Range.atLeast(1), Importance.HIGH,
            "Self-fencing: when no heartbeat of this connector has been acknowledged by the broker for "
                    + "this long, it kills every attempt it runs and reports them LOST, because the "
                    + "scheduler is about to declare the node lost and start them elsewhere. Must be "
                    + "below scheduler.node.timeout.ms (30 s by default; a connector configured with a "
                    + "node timeout refuses a fence timeout that is not below it, and without a "
                    + "fence timeout of its own uses at most two thirds of it). A broker outage longer "
                    + "than this stops every job; raise both timeouts together where outages are "
                    + "expected.");
    public static final String AUTH_KEY = KEYS.define("node.auth.key", Type.PASSWORD, null, Importance.HIGH,
            "This node's key (hex), as printed by 'quanta nodes admit NODE': every heartbeat, job event "
                    + "and telemetry record is signed with it (header quanta-node-mac). Needed when the "
                    + "scheduler runs with node authentication (scheduler.node.secret.file). Unset: "
                    + "records are not signed.");
    public static final String JOB_ENV_PASSTHROUGH = KEYS.define("node.job.env.passthrough",
            Type.LIST, String.join(",", SandboxSettings.DEFAULT_PASSTHROUGH),
            Importance.MEDIUM, "Process backend: the variables of the connector's environment a job "
                    + "inherits (names, or prefixes ending in *); nothing else of it reaches the job, so "
                    + "the connector's credentials never do. The job's own variables and QUANTA_*, "
                    + "CUDA_VISIBLE_DEVICES and HOME (its working directory) are always set.");
    public static final String JOB_SECRETS_DIR = KEYS.define("node.job.secrets.dir",
            Type.STRING, null, Importance.MEDIUM,
            "Process backend: directory on the node holding one file per secret; a job variable whose "
                    + "value is secret:NAME gets the content of file NAME, so secrets never travel on a "
                    + "topic. Unset: secret references are refused (the job fails with the reason).");
    public static final String JOB_CHECKPOINT_ROOTS = KEYS.define("node.job.checkpoint.roots",
            Type.LIST, "", Importance.MEDIUM,
            "Process backend: directories (e.g. a shared file system) besides the node's work "
                    + "directory under which a START may name a checkpoint path; any other path is "
                    + "refused and the job gets its node-local checkpoint directory.");
    public static final String JOB_USER = KEYS.define("node.job.user", Type.STRING, null, Importance.MEDIUM,
            "Process backend: run jobs as this user (setpriv; the connector must run as root). "
                    + "Unset: the connector's user.");
    public static final String JOB_CGROUP_PARENT = KEYS.define("node.job.cgroup.parent",
            Type.STRING, null, Importance.LOW,
            "Process backend: a cgroup v2 directory (writable by the connector) under which every "
                    + "attempt gets a cgroup of its own, killed as a whole. Unset: jobs are killed by "
                    + "process group, process tree and their sandbox token.");
    public static final String JOB_MEMORY_MAX_BYTES = KEYS.define("node.job.memory.max.bytes",
            Type.LONG, 0L, Range.atLeast(0), Importance.LOW,
            "memory.max of an attempt's cgroup (needs node.job.cgroup.parent with the memory "
                    + "controller enabled); 0 = no limit.");
    public static final String JOB_PIDS_MAX = KEYS.define("node.job.pids.max",
            Type.LONG, 0L, Range.atLeast(0), Importance.LOW,
            "pids.max of an attempt's cgroup (needs node.job.cgroup.parent with the pids controller "
                    + "enabled); 0 = no limit.");
    public static final String JOB_LOG_MAX_BYTES = KEYS.define("node.job.log.max.bytes",
            Type.LONG, 64L << 20, Range.atLeast(0), Importance.LOW,
            "Process backend: a job's stdout or stderr file above this size is cut to its last half "
                    + "(checked every 10 s); 0 = no cap.");

    @Override
    public String name() {
        return "node";
    }

    @Override
    public String description() {
        return "The node connector (`quanta node`): who it is, how it runs jobs, where it keeps its state, timings.";
    }

    @Override
    public Set<String> ownedPrefixes() {
        return Set.of("node.");
    }

    @Override
    public ConfigDef definition() {
        return KEYS.definition();
    }
}
