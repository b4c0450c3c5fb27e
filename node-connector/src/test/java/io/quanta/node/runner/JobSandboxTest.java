package io.quanta.node.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.embedded.Await;
import io.quanta.node.testing.Jobs;
import io.quanta.node.testing.RecordingListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process backend's confinement of jobs, with real processes. */
class JobSandboxTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final Clock clock = Clock.systemUTC();
    private final RecordingListener events = new RecordingListener();
    private final List<ProcessJobRunner> runners = new ArrayList<>();
    private final long marker = 900_000 + ThreadLocalRandom.current().nextInt(90_000);
    private NodeWorkDir workDir;

    @BeforeEach
    void setUp() {
        workDir = new NodeWorkDir(dir.resolve("node"));
    }

    @AfterEach
    void tearDown() {
        for (ProcessJobRunner runner : runners) {
            runner.pids().values().forEach(Jobs::killTree);
            runner.close();
        }
        daemons().forEach(ProcessHandle::destroyForcibly);
    }

    private ProcessJobRunner runner(SandboxSettings sandbox) {
        ProcessJobRunner runner = new ProcessJobRunner(workDir, new ProcessRunnerSettings(Duration.ofSeconds(10),
                Duration.ofMillis(300), "udp://127.0.0.1:9", 5, sandbox), clock);
        runners.add(runner);
        return runner;
    }

    private List<ProcessHandle> daemons() {
        String sleep = "sleep " + marker;
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").endsWith(sleep)
                || p.info().arguments().map(a -> a.length > 0 && a[a.length - 1].equals(Long.toString(marker)))
                .orElse(false)).toList();
    }

    private RunnerEvent awaitEnd(AttemptId id) {
        Await.until(id + " ends", WAIT, () -> events.endOf(id).isPresent());
        return events.endOf(id).orElseThrow();
    }

    @Test
    void shouldGiveTheJobNoVariableOfTheConnectorOutsideTheAllowList() throws IOException {
        assertThat(System.getenv("SASL_JAAS_CONFIG")).as("set by the build for this test").contains("password");
        AttemptId id = new AttemptId("env", 1);
        Path out = dir.resolve("env.txt");

        runner(SandboxSettings.defaults()).start(Jobs.launch(id, Jobs.script("printenv.sh", out.toString()),
                Optional.empty(), List.of(1), Map.of("MY_VAR", "mine")), events);

        assertThat(awaitEnd(id)).isInstanceOf(RunnerEvent.Completed.class);
        Map<String, String> env = new HashMap<>();
        for (String entry : Files.readString(out, StandardCharsets.UTF_8).split("\0")) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        assertThat(env).doesNotContainKey("SASL_JAAS_CONFIG");
        assertThat(String.join("\n", env.values())).doesNotContain("connector-secret");
        assertThat(env).containsEntry("MY_VAR", "mine").containsEntry("CUDA_VISIBLE_DEVICES", "1")
                .containsEntry("QUANTA_JOB_ID", "env").containsKey("PATH").containsKey(JobSandbox.TOKEN_VARIABLE)
                .containsEntry("HOME", workDir.attemptDir(id).resolve("work").toString());
        List<String> leaked = System.getenv().keySet().stream()
                .filter(name -> !List.of("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "LD_LIBRARY_PATH", "HOME",
                        "PWD", "SHLVL", "_").contains(name))
                .filter(name -> !name.startsWith("CUDA_") && !name.startsWith("NCCL_") && !name.startsWith("NVIDIA_"))
                .filter(env::containsKey)
                .toList();
        assertThat(leaked).isEmpty();
    }

    @Test
    void shouldLeaveNoProcessBehindWhenAJobThatDaemonizedAChildIsKilled() {
        AttemptId id = new AttemptId("daemon", 1);
        ProcessJobRunner runner = runner(SandboxSettings.defaults());
        runner.start(Jobs.launch(id, Jobs.script("daemonize.sh", Long.toString(marker), "wait")), events);
        Await.until("the daemon runs", WAIT, () -> !daemons().isEmpty());
        long daemonPgid = daemons().get(0).pid();
        assertThat(runner.pids().values()).as("the daemon is no descendant of the job's wrapper").allSatisfy(pid ->
                assertThat(ProcessHandle.of(pid).orElseThrow().descendants().map(ProcessHandle::pid))
                        .doesNotContain(daemonPgid));

        runner.kill(id);

        assertThat(awaitEnd(id)).isInstanceOf(RunnerEvent.Failed.class);
        Await.until("no process of the job is left, daemon included (pid " + daemonPgid + ")", WAIT,
                () -> daemons().isEmpty());
    }

    @Test
    void shouldLeaveNoProcessBehindWhenAJobThatDaemonizedAChildEndsOnItsOwn() {
        AttemptId id = new AttemptId("daemon-exit", 1);
        runner(SandboxSettings.defaults()).start(Jobs.launch(id, Jobs.script("daemonize.sh", Long.toString(marker),
                "exit")), events);

        assertThat(awaitEnd(id)).isInstanceOf(RunnerEvent.Completed.class);
        Await.until("the daemon the job left is gone", WAIT, () -> daemons().isEmpty());
    }

    @Test
    void shouldRefuseACheckpointPathOutsideTheWorkRootAndUseTheNodeLocalDirectory() throws IOException {
        Path outside = dir.resolve("outside").resolve("evil");
        Path link = workDir.root().resolve("link-out");
        Files.createDirectories(dir.resolve("outside"));
        Files.createSymbolicLink(link, dir.resolve("outside"));
        JobSandbox sandbox = new JobSandbox(workDir, SandboxSettings.defaults());

        JobSandbox.CheckpointDir absolute = sandbox.checkpointDir("j", Optional.of(outside.toString()));
        JobSandbox.CheckpointDir viaLink = sandbox.checkpointDir("j", Optional.of(link.resolve("x").toString()));
        JobSandbox.CheckpointDir dotDot = sandbox.checkpointDir("j",
                Optional.of(workDir.root() + "/../outside/evil"));
        JobSandbox.CheckpointDir inside = sandbox.checkpointDir("j",
                Optional.of(workDir.checkpointDir("other").toString()));

        for (JobSandbox.CheckpointDir refused : List.of(absolute, viaLink, dotDot)) {
            assertThat(refused.dir()).isEqualTo(workDir.checkpointDir("j"));
            assertThat(refused.refusal()).get().asString().contains("is outside the node's work root");
        }
        assertThat(inside.refusal()).isEmpty();
        assertThat(inside.dir()).isEqualTo(workDir.checkpointDir("other"));

        AttemptId id = new AttemptId("j", 2);
        Path out = dir.resolve("env.txt");
        runner(SandboxSettings.defaults()).start(Jobs.launch(id, Jobs.script("printenv.sh", out.toString()),
                Optional.of(outside.toString()), List.of(0), Map.of()), events);
        assertThat(awaitEnd(id)).isInstanceOf(RunnerEvent.Completed.class);
        assertThat(outside).doesNotExist();
        assertThat(Files.readString(out)).contains("QUANTA_CHECKPOINT_DIR=" + workDir.checkpointDir("j"));
        assertThat(Files.readString(workDir.attemptDir(id).resolve("stderr.log")))
                .contains("[quanta] checkpoint path '" + outside + "' is outside");
    }

    @Test
    void shouldAllowACheckpointPathUnderAConfiguredRoot() throws IOException {
        Path shared = Files.createDirectories(dir.resolve("shared"));
        JobSandbox sandbox = new JobSandbox(workDir, new SandboxSettings(SandboxSettings.DEFAULT_PASSTHROUGH,
                Optional.empty(), List.of(shared), Optional.empty(), Optional.empty(), 0, 0, 0));

        assertThat(sandbox.checkpointDir("j", Optional.of(shared.resolve("j/ckpt").toString())))
                .isEqualTo(new JobSandbox.CheckpointDir(shared.resolve("j/ckpt"), Optional.empty()));
    }

    @Test
    void shouldResolveSecretsOnTheNodeAndRefuseUnknownOnesWithoutQuotingValues() throws IOException {
        Path secrets = Files.createDirectories(dir.resolve("secrets"));
        Files.writeString(secrets.resolve("db-password"), "hunter2\n");
        JobSandbox sandbox = new JobSandbox(workDir, new SandboxSettings(List.of("PATH"), Optional.of(secrets),
                List.of(), Optional.empty(), Optional.empty(), 0, 0, 0));

        Map<String, String> env = sandbox.environment(Map.of("DB_PASSWORD", "secret:db-password", "PLAIN", "x"),
                Map.of("PATH", "/bin", "AWS_SECRET_ACCESS_KEY", "k"), Path.of("/w"), "t0");

        assertThat(env).containsEntry("DB_PASSWORD", "hunter2").containsEntry("PLAIN", "x")
                .containsEntry("PATH", "/bin").doesNotContainKey("AWS_SECRET_ACCESS_KEY");
        assertThatThrownBy(() -> sandbox.environment(Map.of("K", "secret:missing"), Map.of(), Path.of("/w"), "t"))
                .isInstanceOf(JobSandbox.RefusedLaunchException.class).hasMessageContaining("does not have");
        assertThatThrownBy(() -> sandbox.environment(Map.of("K", "secret:../../etc/shadow"), Map.of(),
                Path.of("/w"), "t")).hasMessageContaining("invalid secret name");
        JobSandbox none = new JobSandbox(workDir, SandboxSettings.defaults());
        assertThatThrownBy(() -> none.environment(Map.of("K", "secret:db-password"), Map.of(), Path.of("/w"), "t"))
                .hasMessageContaining("no secrets directory");
    }

    @Test
    void shouldFailAJobWhoseSecretIsUnknownWithAReasonAndNoProcess() {
        AttemptId id = new AttemptId("secretless", 1);
        runner(SandboxSettings.defaults()).start(Jobs.launch(id, Jobs.script("fail.sh", "0"), Optional.empty(),
                List.of(0), Map.of("TOKEN", "secret:api")), events);

        RunnerEvent.Failed failed = (RunnerEvent.Failed) awaitEnd(id);
        assertThat(failed.message()).contains("cannot start the job's command", "secret 'api'")
                .doesNotContain("fail.sh");
    }

    @Test
    void shouldCutAnOutputFileAboveTheCapToItsLastHalf() throws IOException {
        Path log = Files.writeString(dir.resolve("stdout.log"), "a".repeat(1000) + "b".repeat(1000));
        JobSandbox sandbox = new JobSandbox(workDir, new SandboxSettings(List.of(), Optional.empty(), List.of(),
                Optional.empty(), Optional.empty(), 0, 0, 1500));

        sandbox.capLogs(log, dir.resolve("missing.log"));

        String kept = Files.readString(log);
        assertThat(kept).startsWith("[quanta] output over the cap: 1250 earlier bytes dropped\n")
                .endsWith("b".repeat(750));
        assertThat(kept.substring(kept.indexOf('\n') + 1)).isEqualTo("b".repeat(750));
    }

    @Test
    void shouldRunTheJobAsTheConfiguredUserWhenTheConnectorIsRoot() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name"))
                && Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs root and setpriv: skipped");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        AttemptId id = new AttemptId("as-nobody", 1);
        Path out = workDir.root().resolve("uid.txt");
        Files.setPosixFilePermissions(workDir.root(),
                java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));

        runner(new SandboxSettings(SandboxSettings.DEFAULT_PASSTHROUGH, Optional.empty(), List.of(),
                Optional.of("nobody"), Optional.empty(), 0, 0, 0)).start(Jobs.launch(id,
                List.of("/bin/sh", "-c", "id -u > \"$1\"", "job", out.toString())), events);

        assertThat(awaitEnd(id)).isInstanceOf(RunnerEvent.Completed.class);
        assertThat(Files.readString(out).strip()).isEqualTo("65534");
    }

    @Test
    void shouldPutEachAttemptInACgroupOfItsOwnAndKillItAsAWholeWhereCgroupsV2AreWritable() throws IOException {
        Path parent = Path.of("/sys/fs/cgroup/unified");
        Path mine = parent.resolve("quanta-test-" + marker);
        try {
            Files.createDirectories(mine);
        } catch (IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no writable cgroup v2 at " + parent + ": skipped");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(mine.resolve("cgroup.kill")),
                "cgroup v2 without cgroup.kill (kernel before 5.14): skipped");
        try {
            AttemptId id = new AttemptId("cg", 1);
            ProcessJobRunner runner = runner(new SandboxSettings(SandboxSettings.DEFAULT_PASSTHROUGH,
                    Optional.empty(), List.of(), Optional.empty(), Optional.of(mine), 0, 0, 0));
            runner.start(Jobs.launch(id, Jobs.script("daemonize.sh", Long.toString(marker), "wait")), events);
            Await.until("the daemon runs", WAIT, () -> !daemons().isEmpty());
            Path group = mine.resolve("quanta-cg-1");
            assertThat(Files.readString(group.resolve("cgroup.procs")).lines().map(Long::parseLong))
                    .contains(daemons().get(0).pid());

            runner.kill(id);

            awaitEnd(id);
            Await.until("the daemon is gone and the cgroup removed", WAIT,
                    () -> daemons().isEmpty() && !Files.exists(group));
        } finally {
            try (var children = Files.list(mine)) {
                children.filter(Files::isDirectory).forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(mine);
        }
    }
}
