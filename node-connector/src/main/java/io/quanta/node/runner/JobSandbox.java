package io.quanta.node.runner;

import io.quanta.topics.retry.Backoff;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Confines the jobs of the process backend. A START command comes from a topic, so everything it names is checked:
 * <ul>
 *   <li><b>Environment</b>: a job starts from an allow-list of the connector's variables
 *       ({@link SandboxSettings#envPassthrough()}, never its credentials) plus its own variables; a value
 *       {@code secret:NAME} is read on the node from {@code secretsDir/NAME}, so secrets never travel on a topic;
 *       {@code HOME} is the attempt's working directory.</li>
 *   <li><b>Processes</b>: the job runs in a session and process group of its own ({@code setsid}), optionally as
 *       another user ({@code setpriv}) and in a cgroup v2 of its own with memory and pids limits; a kill reaches the
 *       cgroup ({@code cgroup.kill}), the process group, every descendant, and every process that carries the
 *       attempt's random sandbox token in its environment, so a job that daemonized a child leaves nothing behind
 *       (a child that both left the group and cleared its environment escapes only where no cgroup is set).</li>
 *   <li><b>Paths</b>: a checkpoint path must lie under the node's work root or a configured checkpoint root (after
 *       resolving symbolic links); any other is refused, the job gets its node-local checkpoint directory and the
 *       reason is written to its stderr.</li>
 *   <li><b>Output</b>: stdout and stderr files above the cap are cut to their last half.</li>
 * </ul>
 * Thread-safe (stateless apart from its settings).
 */
public final class JobSandbox {

    /** How long {@link #release} waits for a killed cgroup to empty. */
    static final Duration RELEASE_WAIT = Duration.ofSeconds(10);

    /** Environment variable that marks every process of one attempt. */
    public static final String TOKEN_VARIABLE = "QUANTA_SANDBOX_TOKEN";

    private static final Logger LOG = LoggerFactory.getLogger(JobSandbox.class);
    private static final String SECRET_PREFIX = "secret:";
    private static final Pattern SECRET_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final NodeWorkDir workDir;
    private final SandboxSettings settings;
    private final boolean setsid;
    private final Optional<String> runAs;

    /** A job launch the sandbox refuses; the message is safe to report (it quotes no secret value). */
    public static final class RefusedLaunchException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RefusedLaunchException(String message) {
            super(message);
        }
    }

    /**
     * Where an attempt's checkpoints go.
     *
     * @param dir the directory given to the job
     * @param refusal why the START's own path was not used, if it was not
     */
    public record CheckpointDir(Path dir, Optional<String> refusal) {
    }

    public JobSandbox(NodeWorkDir workDir, SandboxSettings settings) {
        this.workDir = workDir;
        this.settings = settings;
        this.setsid = Files.isExecutable(SETSID);
        if (!setsid) {
            LOG.warn("{} not found: jobs share the connector's process group (killed by tree and token only)", SETSID);
        }
        if (settings.runAsUser().isPresent() && !Files.isExecutable(SETPRIV)) {
            throw new IllegalStateException("node.job.user is set but " + SETPRIV + " is not installed");
        }
        this.runAs = settings.runAsUser().map(JobSandbox::uidAndGid);
    }

    /** {@code --reuid=U --regid=G} of a user, from {@code id} (its primary group need not share its name). */
    private static String uidAndGid(String user) {
        return "--reuid=" + id("-u", user) + " --regid=" + id("-g", user);
    }

    private static String id(String flag, String user) {
        try {
            Process id = new ProcessBuilder("id", flag, "--", user).redirectErrorStream(true).start();
            String out = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (id.waitFor() != 0 || !out.chars().allMatch(Character::isDigit) || out.isEmpty()) {
                throw new IllegalStateException("node.job.user: unknown user '" + user + "' (" + out + ")");
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("node.job.user: cannot look up '" + user + "': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while looking up user " + user, e);
        }
    }

    /** A fresh random token for an attempt's processes. */
    public static String newToken() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /**
     * The job's environment before the runner adds its {@code QUANTA_*} and {@code CUDA_VISIBLE_DEVICES} variables:
     * the allowed part of {@code inherited}, {@code HOME}, the job's own variables with secrets resolved, the token.
     *
     * @throws RefusedLaunchException when a secret is unknown, or named when no secrets directory is configured
     */
    public Map<String, String> environment(Map<String, String> jobEnv, Map<String, String> inherited, Path home,
                                           String token) {
        Map<String, String> env = new LinkedHashMap<>();
        inherited.forEach((name, value) -> {
            if (allowed(name)) {
                env.put(name, value);
            }
        });
        env.put("HOME", home.toString());
        jobEnv.forEach((name, value) -> env.put(name, resolve(name, value)));
        env.put(TOKEN_VARIABLE, token);
        return env;
    }

    private boolean allowed(String name) {
        for (String pattern : settings.envPassthrough()) {
            if (pattern.endsWith("*") ? name.startsWith(pattern.substring(0, pattern.length() - 1))
                    : name.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    private String resolve(String variable, String value) {
        if (value == null || !value.startsWith(SECRET_PREFIX)) {
            return value;
        }
        String name = value.substring(SECRET_PREFIX.length());
        if (settings.secretsDir().isEmpty()) {
            throw new RefusedLaunchException("environment variable " + variable + " names secret '" + name
                    + "' but this node has no secrets directory (node.job.secrets.dir)");
        }
        if (!SECRET_NAME.matcher(name).matches()) {
            throw new RefusedLaunchException("environment variable " + variable + " names an invalid secret name");
        }
        Path file = settings.secretsDir().get().resolve(name);
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new RefusedLaunchException("environment variable " + variable + " names secret '" + name
                    + "', which this node does not have");
        }
    }

    /**
     * The checkpoint directory of an attempt: the START's path when it lies under an allowed root, else the job's
     * node-local directory with the reason.
     */
    public CheckpointDir checkpointDir(String jobId, Optional<String> requested) {
        Path local = workDir.checkpointDir(jobId);
        if (requested.isEmpty()) {
            return new CheckpointDir(local, Optional.empty());
        }
        String ref = requested.get();
        if (!ref.startsWith("/") || ref.indexOf('\0') >= 0) {
            return new CheckpointDir(local, Optional.of("checkpoint path '" + printable(ref)
                    + "' is not an absolute path"));
        }
        Path path = Path.of(ref).normalize();
        Path real = realPathOfExistingPart(path);
        List<Path> roots = new ArrayList<>(settings.checkpointRoots());
        roots.add(workDir.root());
        for (Path root : roots) {
            Path realRoot = realPathOfExistingPart(root);
            if (path.startsWith(root) && real.startsWith(realRoot)) {
                return new CheckpointDir(path, Optional.empty());
            }
        }
        return new CheckpointDir(local, Optional.of("checkpoint path '" + printable(ref) + "' is outside the node's "
                + "work root " + workDir.root() + " and node.job.checkpoint.roots " + settings.checkpointRoots()));
    }

    /** The real path of the longest existing prefix of {@code path}, with the rest appended (symbolic links resolved). */
    private static Path realPathOfExistingPart(Path path) {
        Path existing = path;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return path;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(path)).normalize();
        } catch (IOException e) {
            return path;
        }
    }

    private static String printable(String text) {
        String cut = text.length() > 200 ? text.substring(0, 200) + "..." : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    /**
     * The argv that runs {@code wrapper} in a session of its own; {@code job} (the job's argv) runs as the configured
     * user, if any.
     */
    public List<String> command(List<String> wrapper, List<String> job) {
        List<String> argv = new ArrayList<>();
        if (setsid) {
            argv.add(SETSID.toString());
        }
        argv.addAll(wrapper);
        runAs.ifPresent(ids -> {
            argv.add(SETPRIV.toString());
            argv.addAll(List.of(ids.split(" ")));
            argv.addAll(List.of("--clear-groups", "--"));
        });
        argv.addAll(job);
        return argv;
    }

    /** Makes the attempt's directories the job's own when it runs as another user. */
    public void handOver(Path... dirs) {
        if (settings.runAsUser().isEmpty()) {
            return;
        }
        try {
            var lookup = workDir.root().getFileSystem().getUserPrincipalLookupService();
            var user = lookup.lookupPrincipalByName(settings.runAsUser().get());
            for (Path dir : dirs) {
                try (Stream<Path> all = Files.walk(dir)) {
                    for (Path p : all.toList()) {
                        Files.setOwner(p, user);
                    }
                }
            }
        } catch (IOException e) {
            throw new RefusedLaunchException("cannot hand the job's directories to user "
                    + settings.runAsUser().get() + ": " + e.getMessage());
        }
    }

    /**
     * Creates the attempt's cgroup with its limits, when cgroups are configured.
     *
     * @return its {@code cgroup.procs} file, which the wrapper joins before it starts the job
     */
    public Optional<Path> createCgroup(AttemptId id) {
        if (settings.cgroupParent().isEmpty()) {
            return Optional.empty();
        }
        Path group = settings.cgroupParent().get().resolve("quanta-" + NodeWorkDir.encode(id.jobId()) + "-"
                + id.attempt());
        try {
            Files.createDirectories(group);
            limit(group, "memory.max", settings.memoryMaxBytes());
            limit(group, "pids.max", settings.pidsMax());
            return Optional.of(group.resolve("cgroup.procs"));
        } catch (IOException e) {
            throw new RefusedLaunchException("cannot create the job's cgroup " + group + ": " + e.getMessage());
        }
    }

    private static void limit(Path group, String file, long value) throws IOException {
        if (value <= 0) {
            return;
        }
        Path control = group.resolve(file);
        if (!Files.exists(control)) {
            throw new IOException(file + " is not available under " + group.getParent()
                    + " (enable the controller in the parent's cgroup.subtree_control)");
        }
        Files.writeString(control, Long.toString(value));
    }

    /**
     * Kills every process of an attempt: its cgroup, its process group, the wrapper's descendants, and any process
     * carrying its token. Repeats the token search a few times, since a process may fork while it is being killed.
     */
    public void killAll(ProcessHandle wrapper, String token, Optional<Path> cgroupProcs) {
        // wrapper: null when it is gone already (an attempt found ended after a connector restart)
        cgroupProcs.map(Path::getParent).ifPresent(JobSandbox::killCgroup);
        if (wrapper != null) {
            if (setsid) {
                ProcessSignals.sendToGroup(wrapper.pid(), "KILL");
            }
            wrapper.descendants().forEach(ProcessHandle::destroyForcibly);
            wrapper.destroyForcibly();
        }
        if (token == null || token.isEmpty()) {
            return;
        }
        for (int round = 0; round < 5; round++) {
            List<ProcessHandle> marked = withToken(token);
            if (marked.isEmpty()) {
                return;
            }
            marked.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Removes an attempt's cgroup once it is empty. {@code cgroup.kill} signals every process at once but they leave
     * the group as the kernel reaps them, and a group with members cannot be removed (EBUSY): this waits, with
     * backoff, up to {@link #RELEASE_WAIT} for the group to empty, so that an attempt is reported ended only once
     * nothing of it runs, and no group is left behind (under load one removal attempt right after the kill failed).
     */
    public void release(Optional<Path> cgroupProcs) {
        cgroupProcs.map(Path::getParent).ifPresent(group -> {
            long deadline = System.nanoTime() + RELEASE_WAIT.toNanos();
            Backoff backoff = new Backoff(Duration.ofMillis(5), Duration.ofMillis(200));
            while (true) {
                try {
                    Files.deleteIfExists(group);
                    return;
                } catch (IOException e) {
                    if (System.nanoTime() >= deadline) {
                        LOG.warn("cgroup {} still has processes {} ms after its kill; left in place: {}", group,
                                RELEASE_WAIT.toMillis(), e.toString());
                        return;
                    }
                }
                try {
                    // a sleep is right here: the kernel announces no "group emptied" event we could wait on
                    // portably (cgroup.events needs inotify), and the wait is bounded by RELEASE_WAIT
                    Thread.sleep(backoff.next().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        });
    }

    private static void killCgroup(Path group) {
        Path kill = group.resolve("cgroup.kill");
        try {
            if (Files.exists(kill)) {
                Files.writeString(kill, "1");
            }
        } catch (IOException e) {
            LOG.warn("cannot kill cgroup {}: {}", group, e.toString());
        }
    }

    /** Live processes whose environment holds {@code QUANTA_SANDBOX_TOKEN=token} (Linux {@code /proc}). */
    static List<ProcessHandle> withToken(String token) {
        byte[] needle = (TOKEN_VARIABLE + "=" + token).getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        List<ProcessHandle> found = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.toList()) {
                String name = proc.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit) || Long.parseLong(name) == self) {
                    continue;
                }
                if (contains(readQuietly(proc.resolve("environ")), needle)) {
                    ProcessHandle.of(Long.parseLong(name)).ifPresent(found::add);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("cannot scan /proc: {}", e.toString());
        }
        return found;
    }

    private static byte[] readQuietly(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException | RuntimeException e) {
            return new byte[0];
        }
    }

    private static boolean contains(byte[] environ, byte[] needle) {
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (i - start == needle.length && java.util.Arrays.equals(environ, start, i, needle, 0,
                        needle.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    /** Cuts each of the files above the cap to its last half, behind a marker line. */
    public void capLogs(Path... files) {
        long cap = settings.logCapBytes();
        if (cap <= 0) {
            return;
        }
        for (Path file : files) {
            try {
                if (Files.isRegularFile(file) && Files.size(file) > cap) {
                    keepTail(file, cap / 2);
                }
            } catch (IOException e) {
                LOG.warn("cannot cap {}: {}", file, e.toString());
            }
        }
    }

    private static void keepTail(Path file, long keep) throws IOException {
        // the job appends (O_APPEND), so after the truncation its next writes land at the new end
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long size = raf.length();
            byte[] tail = new byte[(int) Math.min(keep, size)];
            raf.seek(size - tail.length);
            raf.readFully(tail);
            byte[] marker = ("[quanta] output over the cap: " + (size - tail.length) + " earlier bytes dropped\n")
                    .getBytes(StandardCharsets.UTF_8);
            raf.setLength(0);
            raf.seek(0);
            raf.write(marker);
            raf.write(tail);
        }
    }
}
