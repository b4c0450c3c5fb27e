package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class QuantaMainTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cmd = QuantaMain.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    @Test
    void shouldListSubcommandsWhenAskedForHelp() {
        assertThat(run("--help")).isZero();

        assertThat(out.toString()).contains("local", "topics", "config");
    }

    @Test
    void shouldListEveryTopicKeyWhenAskedForConfigKeys() {
        assertThat(run("config", "keys")).isZero();

        assertThat(out.toString()).contains("topic.inbox.partitions", "schema.registry.url", "bootstrap.servers");
    }

    @Test
    void shouldMaskSecretsWhenShowingConfig() {
        assertThat(run("config", "show", "--set", "ssl.keystore.password=very-secret",
                "--set", "schema.registry.basic.auth.user.info=u:also-secret")).isZero();

        assertThat(out.toString()).doesNotContain("very-secret", "also-secret")
                .contains("ssl.keystore.password = [hidden]");
    }

    @Test
    void shouldExitWithUsageCodeNamingKeyWhenSettingIsMisspelt() {
        int code = run("topics", "apply", "--set", "topic.inbox.partitons=3");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("topic.inbox.partitons", "topic.inbox.partitions");
    }

    @Test
    void shouldWriteMarkdownReferenceWithAllSections() {
        assertThat(run("config", "reference")).isZero();

        assertThat(out.toString()).startsWith("# Configuration reference").contains("## connection", "## topics");
    }
}
