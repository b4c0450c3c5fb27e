package io.quanta.node.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.node.runner.NodeWorkDir;
import io.quanta.node.runner.ProcessJobRunner;
import io.quanta.node.runner.ProcessRunnerSettings;
import io.quanta.node.testing.Commands;
import io.quanta.node.testing.Jobs;
import io.quanta.node.testing.RecordingSink;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node connector never logs a job's command line or environment values at INFO or above (the logging backend,
 * slf4j-simple, writes to the current {@code System.err}, which the test captures): only ids, pids and outcomes.
 */
class CommandLoggingTest {

    private static final String ARGV_SECRET = "hunter2-in-argv";
    private static final String ENV_SECRET = "hunter2-in-env";

    @TempDir
    Path dir;

    @Test
    void shouldLogNoCommandLineOrEnvironmentValueAtInfoOrAboveWhenAJobStartsAndEnds() {
        NodeWorkDir work = new NodeWorkDir(dir.resolve("node"));
        RecordingSink sink = new RecordingSink();
        List<String> argv = new ArrayList<>(Jobs.script("fail.sh", "3"));
        argv.add("--api-token=" + ARGV_SECRET);
        NodeCommand start = Commands.start("n1", 7, "j1", 1, argv).setEnv(Map.of("DB_PASSWORD", ENV_SECRET))
                .build();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (ProcessJobRunner runner = new ProcessJobRunner(work, new ProcessRunnerSettings(Duration.ofSeconds(10),
                Duration.ofMillis(300), "udp://127.0.0.1:9", 5), Clock.systemUTC())) {
            new CommandHandler("n1", 7, runner, new InMemoryAttemptStore(), sink, Clock.systemUTC()).handle(start);
            Await.until("the job ended", Duration.ofSeconds(30),
                    () -> sink.find("j1", 1, JobEventType.FAILED).isPresent());
        } finally {
            System.setErr(stderr);
        }

        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).as("the connector's INFO lines are captured").anySatisfy(l -> assertThat(l)
                .contains(" INFO ", "started j1#1 as pid"));
        assertThat(lines).filteredOn(l -> l.contains(ARGV_SECRET) || l.contains(ENV_SECRET))
                .as("lines naming the command line or an environment value, other than DEBUG or TRACE ones")
                .allSatisfy(l -> assertThat(l).containsAnyOf(" DEBUG ", " TRACE "));
    }
}
