package io.quanta.node;

import io.quanta.node.runner.SandboxSettings;
import io.quanta.topics.config.ConfigSection;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;

/** Settings of a node connector ({@code node.*}): identity, backend, GPUs, work directory, timings. */
public final class NodeConfigSection implements ConfigSection {

    public static final String ID = "node.id";
    public static final String CELL = "node.cell";
    public static final String RACK = "node.rack";
    public static final String BACKEND = "node.backend";
    public static final String GPUS = "node.gpus";
    public static final String GPU_MODEL = "node.gpu.model";
    public static final String GPU_MEMORY_MIB = "node.gpu.memory.mib";
    public static final String NVIDIA_SMI = "node.nvidia.smi";
    public static final String WORK_DIR = "node.work.dir";
    public static final String HEARTBEAT_INTERVAL_MS = "node.heartbeat.interval.ms";
    public static final String SUSPEND_DEADLINE_MS = "node.suspend.deadline.ms";
    public static final String TERM_GRACE_MS = "node.term.grace.ms";
    public static final String TELEMETRY_WINDOW_MS = "node.telemetry.window.ms";
    public static final String TELEMETRY_PORT = "node.telemetry.port";
    public static final String STDERR_LINES = "node.stderr.lines";
    public static final String SIM_SPEED = "node.sim.speed";
    public static final String SIM_THROUGHPUT_MODEL = "node.sim.throughput.model";
    public static final String OUTBOX_CAPACITY = "node.outbox.capacity";
    public static final String SHUTDOWN_TIMEOUT_MS = "node.shutdown.timeout.ms";
    public static final String ATTEMPT_RETENTION_HOURS = "node.attempts.retention.hours";
    public static final String FENCE_TIMEOUT_MS = "node.fence.timeout.ms";
    public static final String AUTH_KEY = "node.auth.key";
    public static final String JOB_ENV_PASSTHROUGH = "node.job.env.passthrough";
    public static final String JOB_SECRETS_DIR = "node.job.secrets.dir";
    public static final String JOB_CHECKPOINT_ROOTS = "node.job.checkpoint.roots";
    public static final String JOB_USER = "node.job.user";
    public static final String JOB_CGROUP_PARENT = "node.job.cgroup.parent";
    public static final String JOB_MEMORY_MAX_BYTES = "node.job.memory.max.bytes";
    public static final String JOB_PIDS_MAX = "node.job.pids.max";
    public static final String JOB_LOG_MAX_BYTES = "node.job.log.max.bytes";

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
        return new ConfigDef()
                .define(ID, Type.STRING, null, Importance.HIGH,
                        "Node id: the key of its heartbeats and commands. Default: the host name.")
                .define(CELL, Type.STRING, "cell-0", new ConfigDef.NonEmptyString(), Importance.HIGH,
                        "Cell the node belongs to (the scheduler schedules a cell's nodes together). The default is "
                                + "the scheduler's default cell (scheduler.routing.default.cell), so a node started "
                                + "without a cell gets the jobs no routing rule sends elsewhere.")
                .define(RACK, Type.STRING, "default", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                        "Rack (network domain) of the node, for locality-aware placement.")
                .define(BACKEND, Type.STRING, "process", ValidString.in("process", "simulated"), Importance.HIGH,
                        "process: real jobs on the GPUs nvidia-smi lists; simulated: virtual GPUs and jobs.")
                .define(GPUS, Type.INT, 8, Range.atLeast(1), Importance.MEDIUM,
                        "Number of virtual GPUs (simulated backend).")
                .define(GPU_MODEL, Type.STRING, "V100", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                        "Model of the virtual GPUs (simulated backend), e.g. V100, A100, T4.")
                .define(GPU_MEMORY_MIB, Type.INT, 0, Range.atLeast(0), Importance.LOW,
                        "Memory of a virtual GPU in MiB (simulated backend); 0 = the model's nominal memory.")
                .define(NVIDIA_SMI, Type.STRING, "nvidia-smi", new ConfigDef.NonEmptyString(), Importance.LOW,
                        "nvidia-smi binary (process backend): a name on the PATH or a path.")
                .define(WORK_DIR, Type.STRING, null, Importance.MEDIUM,
                        "Local state: attempt records, job working directories, default checkpoints. "
                                + "Default: ~/.quanta/nodes/<node.id>.")
                .define(HEARTBEAT_INTERVAL_MS, Type.LONG, 5_000L, Range.atLeast(10), Importance.MEDIUM,
                        "Interval between heartbeats.")
                .define(SUSPEND_DEADLINE_MS, Type.LONG, 60_000L, Range.atLeast(1), Importance.MEDIUM,
                        "How long a job may take to checkpoint and exit after SIGUSR1 before SIGTERM "
                                + "(papers: a checkpoint takes seconds to a minute).")
                .define(TERM_GRACE_MS, Type.LONG, 10_000L, Range.atLeast(1), Importance.LOW,
                        "How long after SIGTERM before SIGKILL.")
                .define(TELEMETRY_WINDOW_MS, Type.LONG, 10_000L, Range.atLeast(10), Importance.MEDIUM,
                        "Window over which job progress is aggregated into one JobTelemetry record.")
                .define(TELEMETRY_PORT, Type.INT, 0, Range.between(0, 65_535), Importance.LOW,
                        "Loopback UDP port where jobs report progress; 0 = any free port (given to jobs in "
                                + "QUANTA_TELEMETRY).")
                .define(STDERR_LINES, Type.INT, 20, Range.between(0, 1_000), Importance.LOW,
                        "Last lines of stderr carried by a FAILED event.")
                .define(SIM_SPEED, Type.DOUBLE, 1.0, Range.atLeast(0.001), Importance.MEDIUM,
                        "Simulated backend: durations are divided by this factor (600 runs a 10-minute job in 1 s).")
                .define(SIM_THROUGHPUT_MODEL, Type.STRING, "standard",
                        ValidString.in("standard", "tiresias-compatible"), Importance.LOW,
                        "Simulated backend: throughput model (tiresias-compatible = no locality or interference "
                                + "slowdown, free preemption).")
                .define(OUTBOX_CAPACITY, Type.INT, 100_000, Range.atLeast(100), Importance.LOW,
                        "Records kept while the broker is unreachable; beyond it the oldest telemetry is dropped "
                                + "(job events are never dropped).")
                .define(SHUTDOWN_TIMEOUT_MS, Type.LONG, 10_000L, Range.atLeast(0), Importance.LOW,
                        "How long a clean shutdown waits to deliver the last events and heartbeat.")
                .define(ATTEMPT_RETENTION_HOURS, Type.LONG, 168L, Range.atLeast(0), Importance.MEDIUM,
                        "Hours an ended attempt's record, logs and working directory stay in the work directory "
                                + "(checked at start and every hour); a job whose newest attempt here completed or "
                                + "failed also loses its default checkpoint then. Suspended jobs keep their "
                                + "checkpoint. 0 = keep everything.")
                .define(FENCE_TIMEOUT_MS, Type.LONG, 20_000L, Range.atLeast(1), Importance.HIGH,
                        "Self-fencing: when no heartbeat of this connector has been acknowledged by the broker for "
                                + "this long, it kills every attempt it runs and reports them LOST, because the "
                                + "scheduler is about to declare the node lost and start them elsewhere. Must be "
                                + "below scheduler.node.timeout.ms (30 s by default; a connector configured with a "
                                + "node timeout refuses a fence timeout that is not below it, and without a "
                                + "fence timeout of its own uses at most two thirds of it). A broker outage longer "
                                + "than this stops every job; raise both timeouts together where outages are "
                                + "expected.")
                .define(AUTH_KEY, Type.PASSWORD, null, Importance.HIGH,
                        "This node's key (hex), as printed by 'quanta nodes admit NODE': every heartbeat, job event "
                                + "and telemetry record is signed with it (header quanta-node-mac). Needed when the "
                                + "scheduler runs with node authentication (scheduler.node.secret.file). Unset: "
                                + "records are not signed.")
                .define(JOB_ENV_PASSTHROUGH, Type.LIST, String.join(",", SandboxSettings.DEFAULT_PASSTHROUGH),
                        Importance.MEDIUM, "Process backend: the variables of the connector's environment a job "
                                + "inherits (names, or prefixes ending in *); nothing else of it reaches the job, so "
                                + "the connector's credentials never do. The job's own variables and QUANTA_*, "
                                + "CUDA_VISIBLE_DEVICES and HOME (its working directory) are always set.")
                .define(JOB_SECRETS_DIR, Type.STRING, null, Importance.MEDIUM,
                        "Process backend: directory on the node holding one file per secret; a job variable whose "
                                + "value is secret:NAME gets the content of file NAME, so secrets never travel on a "
                                + "topic. Unset: secret references are refused (the job fails with the reason).")
                .define(JOB_CHECKPOINT_ROOTS, Type.LIST, "", Importance.MEDIUM,
                        "Process backend: directories (e.g. a shared file system) besides the node's work "
                                + "directory under which a START may name a checkpoint path; any other path is "
                                + "refused and the job gets its node-local checkpoint directory.")
                .define(JOB_USER, Type.STRING, null, Importance.MEDIUM,
                        "Process backend: run jobs as this user (setpriv; the connector must run as root). "
                                + "Unset: the connector's user.")
                .define(JOB_CGROUP_PARENT, Type.STRING, null, Importance.LOW,
                        "Process backend: a cgroup v2 directory (writable by the connector) under which every "
                                + "attempt gets a cgroup of its own, killed as a whole. Unset: jobs are killed by "
                                + "process group, process tree and their sandbox token.")
                .define(JOB_MEMORY_MAX_BYTES, Type.LONG, 0L, Range.atLeast(0), Importance.LOW,
                        "memory.max of an attempt's cgroup (needs node.job.cgroup.parent with the memory "
                                + "controller enabled); 0 = no limit.")
                .define(JOB_PIDS_MAX, Type.LONG, 0L, Range.atLeast(0), Importance.LOW,
                        "pids.max of an attempt's cgroup (needs node.job.cgroup.parent with the pids controller "
                                + "enabled); 0 = no limit.")
                .define(JOB_LOG_MAX_BYTES, Type.LONG, 64L << 20, Range.atLeast(0), Importance.LOW,
                        "Process backend: a job's stdout or stderr file above this size is cut to its last half "
                                + "(checked every 10 s); 0 = no cap.");
    }
}
