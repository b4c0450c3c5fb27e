package io.quanta.node.runner;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How the process backend confines a job (see {@link JobSandbox}).
 *
 * @param envPassthrough variables of the connector's environment a job inherits: exact names, or prefixes ending in
 *                       {@code *} (e.g. {@code CUDA_*}); everything else (credentials included) is withheld
 * @param secretsDir where {@code secret:NAME} values of a job's environment are read from (file {@code NAME}); empty
 *                   = secret references are refused
 * @param checkpointRoots directories besides the node's work root under which a START may name a checkpoint path
 *                        (shared file systems)
 * @param runAsUser the user jobs run as (the connector must run as root); empty = the connector's user
 * @param cgroupParent a cgroup v2 directory under which each attempt gets its own cgroup (killed as a whole); empty =
 *                     off (jobs are still killed by process group and by their sandbox token)
 * @param memoryMaxBytes {@code memory.max} of an attempt's cgroup; 0 = no limit
 * @param pidsMax {@code pids.max} of an attempt's cgroup; 0 = no limit
 * @param logCapBytes size above which a job's stdout or stderr file is cut to its last half; 0 = no cap
 */
public record SandboxSettings(List<String> envPassthrough, Optional<Path> secretsDir, List<Path> checkpointRoots,
                              Optional<String> runAsUser, Optional<Path> cgroupParent, long memoryMaxBytes,
                              long pidsMax, long logCapBytes) {

    /** What a job inherits from the connector's environment by default. */
    public static final List<String> DEFAULT_PASSTHROUGH = List.of("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
            "LD_LIBRARY_PATH", "CUDA_*", "NCCL_*", "NVIDIA_*");

    public SandboxSettings {
        envPassthrough = List.copyOf(envPassthrough);
        Objects.requireNonNull(secretsDir, "secretsDir");
        checkpointRoots = checkpointRoots.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        Objects.requireNonNull(runAsUser, "runAsUser");
        Objects.requireNonNull(cgroupParent, "cgroupParent");
        if (memoryMaxBytes < 0 || pidsMax < 0 || logCapBytes < 0) {
            throw new IllegalArgumentException("sandbox limits must be >= 0");
        }
    }

    /** The defaults: the pass-through list above, no secrets, no extra roots, no user switch, no cgroup, 64 MiB logs. */
    public static SandboxSettings defaults() {
        return new SandboxSettings(DEFAULT_PASSTHROUGH, Optional.empty(), List.of(), Optional.empty(),
                Optional.empty(), 0, 0, 64L << 20);
    }
}
