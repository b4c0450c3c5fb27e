package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubmitCommandTest {

    private final CommandRunner cli = new CommandRunner();

    private int run(String... args) {
        return cli.run(args);
    }

    @Test
    void shouldExitWithUsageCodeAndProduceNothingWhenJobIsInvalid() {
        int code = run("submit", "--gpus", "0", "--tenant", "vision", "--bootstrap", "127.0.0.1:1");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("gpus must be at least 1, got 0", "nothing to run", "nothing submitted");
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void shouldKeepJobFlagsInCommandWhenNoDoubleDashIsGiven() {
        int code = run("submit", "--dry-run", "--gpus", "2", "--tenant", "vision", "--model", "resnet50",
                "python", "train.py", "--lr", "0.1");

        assertThat(code).isZero();
        assertThat(cli.out()).contains("\"python\"", "\"--lr\"", "\"0.1\"", "\"numGpus\" : 2");
    }

    @Test
    void shouldLetFlagsOverrideFileWhenBothAreGiven(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.yaml");
        Files.writeString(file, "tenant: nlp\ngpus: 8\nmodel: transformer\ncommand: [python, lm.py]\n");

        int code = run("submit", "--dry-run", "--file", file.toString(), "--gpus", "4", "--", "python", "other.py");

        assertThat(code).isZero();
        assertThat(cli.out()).contains("\"numGpus\" : 4", "\"tenant\" : \"nlp\"", "\"other.py\"")
                .doesNotContain("lm.py");
    }

    @Test
    void shouldWarnAboutSecretLookingVariablesInTheClearAndMaskEveryValueItPrints() {
        int code = run("submit", "--dry-run", "--gpus", "1", "--tenant", "vision", "--env", "DB_PASSWORD=hunter2",
                "--env", "api_token=tok-123", "--env", "AWS_SECRET_ACCESS_KEY=secret:aws-key", "--env", "MODE=train",
                "--", "python", "train.py");

        assertThat(code).isZero();
        assertThat(cli.err()).contains("warning: environment variable DB_PASSWORD looks like a secret",
                        "warning: environment variable api_token looks like a secret", "secret:NAME",
                        "node.job.secrets.dir")
                .doesNotContain("AWS_SECRET_ACCESS_KEY", "MODE", "hunter2", "tok-123");
        assertThat(cli.out()).contains("\"DB_PASSWORD\" : \"***\"", "\"MODE\" : \"***\"",
                        "\"AWS_SECRET_ACCESS_KEY\" : \"secret:aws-key\"", "\"python\"")
                .doesNotContain("hunter2", "tok-123", "train\"");
    }

    @Test
    void shouldNotWarnWhenEverySecretIsAReference() {
        int code = run("submit", "--dry-run", "--gpus", "1", "--tenant", "vision", "--env", "DB_PASSWORD=secret:db",
                "--env", "EPOCHS=3", "--", "python", "train.py");

        assertThat(code).isZero();
        assertThat(cli.err()).doesNotContain("warning");
    }

    @Test
    void shouldExitWithUsageCodeNamingFileWhenJobFileIsMalformed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.yaml");
        Files.writeString(file, "tenant: nlp\ngpus: [1, 2]\n");

        int code = run("submit", "--dry-run", "--file", file.toString());

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("job.yaml", "gpus must be a whole number");
    }
}
