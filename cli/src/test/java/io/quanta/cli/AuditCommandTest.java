package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditCommandTest {

    private final CommandRunner cli = new CommandRunner();

    @TempDir
    Path dir;

    @Test
    void shouldListTheAuditSubcommandsWhenAskedForHelp() {
        assertThat(cli.run("audit", "--help")).isZero();

        assertThat(cli.out()).contains("replay", "explain", "export", "export-trace");
    }

    @Test
    void shouldExitWithUsageCodeNamingTheFileWhenTheExportIsNotAnAvroFile() throws Exception {
        Path file = Files.writeString(dir.resolve("not-an-export.avro"), "text");

        int code = cli.run("audit", "replay", "--cell", "cell-0", "--file", file.toString());

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("not-an-export.avro").contains("not an Avro container file");
    }

    @Test
    void shouldExitWithUsageCodeWhenFromIsNeitherOffsetNorTime() {
        int code = cli.run("audit", "replay", "--cell", "cell-0", "--from", "yesterday");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("'yesterday'");
    }
}
