package io.quanta.node.runner;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs attempts as real processes, confined by a {@link JobSandbox} (allow-listed environment, a session and process
 * group of its own, optionally another user and a cgroup, confined checkpoint paths, capped output). Each attempt runs
 * under a tiny {@code /bin/sh} wrapper that records the job's exit status in {@code exit-code}, so that a restarted
 * connector can still tell how an adopted job ended. Besides its own variables, the job gets:
 * <ul>
 *   <li>{@code CUDA_VISIBLE_DEVICES}: the assigned GPU indices, comma-separated;</li>
 *   <li>{@code QUANTA_CHECKPOINT_DIR}: the START command's checkpoint reference when it lies under an allowed root
 *       (the work root or node.job.checkpoint.roots), else the job's directory on this node; it holds a checkpoint when
 *       {@value CheckpointMarker#FILE_NAME} exists ({@code QUANTA_RESUME=1});</li>
 *   <li>{@code QUANTA_TELEMETRY}: where to report progress; {@code QUANTA_JOB_ID}, {@code QUANTA_ATTEMPT},
 *       {@code QUANTA_WORK_DIR} (also its working directory).</li>
 * </ul>
 * Suspend: SIGUSR1 to the job process (sent with {@code kill -USR1 <pid>} through {@code /bin/sh}, the JDK cannot send
 * it), then SIGTERM at the deadline, then SIGKILL to the whole process tree after the grace. The outcome is SUSPENDED
 * when the checkpoint marker changed after the request, COMPLETED when the job exited 0 on its own without one, FAILED
 * otherwise. Kill: SIGKILL to every process of the attempt at once (cgroup, group, tree, token), reported as FAILED;
 * whatever an attempt leaves behind when it ends is killed the same way. Stdout and stderr go to files in the
 * attempt directory; a FAILED event carries the last lines of stderr.
 */
public final class ProcessJobRunner implements JobRunner {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessJobRunner.class);
    private static final String PROCESS_STATE = "process.json";
    private static final String EXIT_CODE = "exit-code";
    /** $1 exit-code file, $2 cgroup.procs to join first (or empty), then the job's argv. */
    private static final String WRAPPER = "exit_file=\"$1\"; cg=\"$2\"; shift 2; "
            + "if [ -n \"$cg\" ]; then echo $$ > \"$cg\" || exit 125; fi; \"$@\"; code=$?; "
            + "printf '%s\\n' \"$code\" > \"$exit_file.tmp\" && mv -f \"$exit_file.tmp\" \"$exit_file\"; exit \"$code\"";
    private static final long LOG_CAP_CHECK_SECONDS = 10;

    /**
     * What the runner persists about a process, to adopt it after a restart.
     *
     * @param pid pid of the wrapper shell
     * @param startMillis start instant of the wrapper per the OS (guards against pid reuse), -1 when unknown
     * @param checkpointDir the job's checkpoint directory
     * @param suspendRequested whether SIGUSR1 was sent
     * @param fingerprintAtSuspend checkpoint marker fingerprint when the suspend was requested
     * @param killRequested whether a KILL command was applied
     * @param forced whether the runner had to SIGTERM/SIGKILL after the deadline
     * @param token the attempt's sandbox token (null in records of older versions)
     * @param cgroupProcs the attempt's cgroup.procs file, null when none
     */
    record ProcessState(long pid, long startMillis, String checkpointDir, boolean suspendRequested,
                        String fingerprintAtSuspend, boolean killRequested, boolean forced, String token,
                        String cgroupProcs) {
    }

    private final NodeWorkDir workDir;
    private final ProcessRunnerSettings settings;
    private final Clock clock;
    private final ScheduledExecutorService timers;
    private final Map<AttemptId, Tracked> tracked = new HashMap<>();
    private final JobSandbox sandbox;

    /** A runner whose attempts live under {@code workDir}; timestamps of events come from {@code clock}. */
    public ProcessJobRunner(NodeWorkDir workDir, ProcessRunnerSettings settings, Clock clock) {
        this.workDir = workDir;
        this.settings = settings;
        this.clock = clock;
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quanta-process-runner");
            t.setDaemon(true);
            return t;
        });
        this.sandbox = new JobSandbox(workDir, settings.sandbox());
        timers.scheduleWithFixedDelay(this::capLogs, LOG_CAP_CHECK_SECONDS, LOG_CAP_CHECK_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void start(AttemptLaunch launch, Listener listener) {
        AttemptId id = launch.id();
        synchronized (this) {
            if (tracked.containsKey(id)) {
                LOG.warn("attempt {} already runs; START ignored by the runner", id);
                return;
            }
        }
        if (launch.command().isEmpty()) {
            listener.onEvent(new RunnerEvent.Failed(id, clock.instant(), OptionalInt.empty(),
                    "START command for " + id + " has no command to run"));
            return;
        }
        Path dir = workDir.attemptDir(id);
        JobSandbox.CheckpointDir checkpoint = sandbox.checkpointDir(id.jobId(), launch.checkpointRef());
        Path checkpointDir = checkpoint.dir();
        String token = JobSandbox.newToken();
        Optional<Path> cgroup = Optional.empty();
        Process process;
        try {
            NodeWorkDir.createDirectories(dir.resolve("work"));
            NodeWorkDir.createDirectories(checkpointDir);
            Files.deleteIfExists(dir.resolve(EXIT_CODE));
            if (checkpoint.refusal().isPresent()) {
                LOG.warn("{}: {}; using {}", id, checkpoint.refusal().get(), checkpointDir);
                Files.writeString(dir.resolve("stderr.log"), "[quanta] " + checkpoint.refusal().get() + "; using "
                        + checkpointDir + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            sandbox.handOver(dir, checkpointDir);
            cgroup = sandbox.createCgroup(id);
            process = processBuilder(launch, dir, checkpointDir, token, cgroup).start();
        } catch (IOException | RuntimeException e) {
            sandbox.release(cgroup);
            // the reason names no command line or environment value: both may hold secrets
            listener.onEvent(new RunnerEvent.Failed(id, clock.instant(), OptionalInt.empty(),
                    "cannot start the job's command: " + e.getMessage()));
            return;
        }
        Tracked t = new Tracked(id, listener, process.toHandle(), process, dir, checkpointDir, token, cgroup);
        synchronized (this) {
            tracked.put(id, t);
            persist(t);
        }
        LOG.info("started {} as pid {}", id, process.pid());
        LOG.debug("{} runs {}", id, launch.command());
        listener.onEvent(new RunnerEvent.Started(id, clock.instant()));
        process.onExit().whenComplete((p, error) -> finished(t));
    }

    @Override
    public void suspend(AttemptId id) {
        Tracked t;
        synchronized (this) {
            t = tracked.get(id);
            if (t == null || t.suspendRequested || t.killRequested) {
                return;
            }
            t.suspendRequested = true;
            t.fingerprintAtSuspend = CheckpointMarker.fingerprint(t.checkpointDir);
            persist(t);
            t.timers.add(timers.schedule(() -> terminate(t), settings.suspendDeadline().toMillis(),
                    TimeUnit.MILLISECONDS));
        }
        jobProcess(t).ifPresentOrElse(p -> ProcessSignals.send(p, "USR1"),
                () -> LOG.warn("{}: no job process to signal yet; it will be stopped at the deadline", id));
    }

    @Override
    public void kill(AttemptId id) {
        Tracked t;
        synchronized (this) {
            t = tracked.get(id);
            if (t == null) {
                return;
            }
            t.killRequested = true;
            persist(t);
        }
        killTree(t);
    }

    @Override
    public void recover(AttemptId id, boolean suspending, Listener listener) {
        Path dir = workDir.attemptDir(id);
        Optional<ProcessState> state = Json.read(dir.resolve(PROCESS_STATE), ProcessState.class);
        if (state.isEmpty()) {
            listener.onEvent(new RunnerEvent.Lost(id, clock.instant(), "no process record in " + dir
                    + ": the connector stopped while starting it"));
            return;
        }
        ProcessState s = state.get();
        Optional<ProcessHandle> alive = ProcessHandle.of(s.pid())
                .filter(ProcessHandle::isAlive)
                .filter(h -> s.startMillis() < 0 || startMillis(h) == s.startMillis());
        Tracked t = new Tracked(id, listener, alive.orElse(null), null, dir, Path.of(s.checkpointDir()), s.token(),
                Optional.ofNullable(s.cgroupProcs()).map(Path::of));
        t.suspendRequested = s.suspendRequested();
        t.fingerprintAtSuspend = s.fingerprintAtSuspend();
        t.killRequested = s.killRequested();
        t.forced = s.forced();
        if (alive.isEmpty()) {
            t.ended = true;
            sandbox.killAll(null, t.token, t.cgroup); // what it left behind while the connector was down
            sandbox.release(t.cgroup);
            listener.onEvent(outcome(t, readExitCode(t)));
            return;
        }
        synchronized (this) {
            tracked.put(id, t);
        }
        LOG.info("adopted {} (pid {})", id, s.pid());
        alive.get().onExit().whenComplete((p, error) -> finished(t));
        if (t.killRequested) {
            killTree(t);
        } else if (t.suspendRequested) {
            synchronized (this) {
                t.timers.add(timers.schedule(() -> terminate(t), settings.suspendDeadline().toMillis(),
                        TimeUnit.MILLISECONDS));
            }
        } else if (suspending) {
            suspend(id);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            for (Tracked t : tracked.values()) {
                t.timers.forEach(f -> f.cancel(false));
                t.ended = true;
            }
            tracked.clear();
        }
        timers.shutdownNow();
    }

    /** Pids of the wrapper processes of the running attempts (for diagnostics and tests). */
    public synchronized Map<AttemptId, Long> pids() {
        return tracked.values().stream().collect(Collectors.toMap(t -> t.id, t -> t.handle.pid()));
    }

    private ProcessBuilder processBuilder(AttemptLaunch launch, Path dir, Path checkpointDir, String token,
                                          Optional<Path> cgroup) {
        List<String> argv = sandbox.command(List.of("/bin/sh", "-c", WRAPPER, "quanta-job",
                dir.resolve(EXIT_CODE).toString(), cgroup.map(Path::toString).orElse("")), launch.command());
        ProcessBuilder builder = new ProcessBuilder(argv)
                .directory(dir.resolve("work").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr.log").toFile()));
        Map<String, String> env = builder.environment();
        Map<String, String> base = sandbox.environment(launch.env(), System.getenv(), dir.resolve("work"), token);
        env.clear();
        env.putAll(base);
        env.put("CUDA_VISIBLE_DEVICES", launch.gpuIndices().stream().map(String::valueOf)
                .collect(Collectors.joining(",")));
        env.put("QUANTA_JOB_ID", launch.id().jobId());
        env.put("QUANTA_ATTEMPT", Integer.toString(launch.id().attempt()));
        env.put("QUANTA_CHECKPOINT_DIR", checkpointDir.toString());
        env.put("QUANTA_RESUME", CheckpointMarker.exists(checkpointDir) ? "1" : "0");
        env.put("QUANTA_TELEMETRY", settings.telemetryEndpoint());
        env.put("QUANTA_WORK_DIR", dir.resolve("work").toString());
        return builder;
    }

    private void terminate(Tracked t) {
        synchronized (this) {
            if (t.ended) {
                return;
            }
            t.forced = true;
            persist(t);
            t.timers.add(timers.schedule(() -> killTree(t), settings.termGrace().toMillis(), TimeUnit.MILLISECONDS));
        }
        LOG.warn("{} did not stop within the suspend deadline of {}: SIGTERM", t.id, settings.suspendDeadline());
        jobProcess(t).ifPresent(ProcessHandle::destroy);
    }

    private void killTree(Tracked t) {
        sandbox.killAll(t.handle, t.token, t.cgroup);
    }

    private void capLogs() {
        List<Path> dirs;
        synchronized (this) {
            dirs = tracked.values().stream().map(t -> t.dir).toList();
        }
        for (Path dir : dirs) {
            sandbox.capLogs(dir.resolve("stdout.log"), dir.resolve("stderr.log"));
        }
    }

    private Optional<ProcessHandle> jobProcess(Tracked t) {
        return t.handle.isAlive() ? t.handle.children().findFirst() : Optional.empty();
    }

    private void finished(Tracked t) {
        synchronized (this) {
            if (t.ended) {
                return;
            }
            t.ended = true;
            t.timers.forEach(f -> f.cancel(false));
            tracked.remove(t.id);
        }
        // whatever the job left behind (a daemonized child) ends with it: the attempt's GPUs are free after this
        sandbox.killAll(t.handle, t.token, t.cgroup);
        sandbox.release(t.cgroup);
        OptionalInt exit = readExitCode(t);
        RunnerEvent event = outcome(t, exit);
        LOG.info("{} ended: {}", t.id, event);
        t.listener.onEvent(event);
    }

    private RunnerEvent outcome(Tracked t, OptionalInt exit) {
        Instant now = clock.instant();
        if (t.killRequested) {
            return failed(t, exit, "killed on request");
        }
        if (t.suspendRequested && CheckpointMarker.isFresh(t.checkpointDir, t.fingerprintAtSuspend)) {
            return new RunnerEvent.Suspended(t.id, now, t.checkpointDir.toString());
        }
        if (exit.isPresent() && exit.getAsInt() == 0 && !t.forced) {
            return new RunnerEvent.Completed(t.id, now);
        }
        if (t.suspendRequested) {
            String how = t.forced ? "did not checkpoint within the suspend deadline of "
                    + settings.suspendDeadline().toMillis() + " ms and was stopped (SIGTERM, then SIGKILL)"
                    : "exited after a suspend request without writing a checkpoint";
            return failed(t, exit, how);
        }
        if (exit.isEmpty()) {
            return new RunnerEvent.Lost(t.id, now, t.id + " ended without an exit status (its wrapper was killed, "
                    + "or it ended while the connector was down)");
        }
        return failed(t, exit, "exited with code " + exit.getAsInt());
    }

    private RunnerEvent.Failed failed(Tracked t, OptionalInt exit, String what) {
        String tail = StderrTail.lastLines(t.dir.resolve("stderr.log"), settings.stderrTailLines());
        String message = t.id + " " + what + (tail.isEmpty() ? "" : "\n" + tail);
        return new RunnerEvent.Failed(t.id, clock.instant(), exit, message);
    }

    private OptionalInt readExitCode(Tracked t) {
        Path file = t.dir.resolve(EXIT_CODE);
        try {
            if (Files.isRegularFile(file)) {
                return OptionalInt.of(Integer.parseInt(Files.readString(file).strip()));
            }
        } catch (IOException | NumberFormatException e) {
            LOG.warn("{}: unreadable exit status in {}: {}", t.id, file, e.getMessage());
        }
        if (t.process != null && !t.process.isAlive()) {
            return OptionalInt.of(t.process.exitValue());
        }
        return OptionalInt.empty();
    }

    private void persist(Tracked t) {
        Json.write(t.dir.resolve(PROCESS_STATE), new ProcessState(t.handle.pid(), startMillis(t.handle),
                t.checkpointDir.toString(), t.suspendRequested, t.fingerprintAtSuspend, t.killRequested, t.forced,
                t.token, t.cgroup.map(Path::toString).orElse(null)));
    }

    private static long startMillis(ProcessHandle handle) {
        return handle.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    }

    /** Runtime state of one attempt's process; guarded by the runner's lock. */
    private static final class Tracked {
        final AttemptId id;
        final Listener listener;
        final ProcessHandle handle;
        final Process process;
        final Path dir;
        final Path checkpointDir;
        final String token;
        final Optional<Path> cgroup;
        final List<ScheduledFuture<?>> timers = new ArrayList<>();
        boolean suspendRequested;
        String fingerprintAtSuspend = CheckpointMarker.NONE;
        boolean killRequested;
        boolean forced;
        boolean ended;

        Tracked(AttemptId id, Listener listener, ProcessHandle handle, Process process, Path dir, Path checkpointDir,
                String token, Optional<Path> cgroup) {
            this.id = id;
            this.token = token;
            this.cgroup = cgroup;
            this.listener = listener;
            this.handle = handle;
            this.process = process;
            this.dir = dir;
            this.checkpointDir = checkpointDir;
        }
    }
}
