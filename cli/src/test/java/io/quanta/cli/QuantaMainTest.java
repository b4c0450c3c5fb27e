package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuantaMainTest {

    private final CommandRunner cli = new CommandRunner();

    private int run(String... args) {
        return cli.run(args);
    }

    @Test
    void shouldListSubcommandsWhenAskedForHelp() {
        assertThat(run("--help")).isZero();

        assertThat(cli.out()).contains("local", "topics", "config");
    }

    @Test
    void shouldListEveryTopicKeyWhenAskedForConfigKeys() {
        assertThat(run("config", "keys")).isZero();

        assertThat(cli.out()).contains("topic.inbox.partitions", "schema.registry.url", "bootstrap.servers");
    }

    @Test
    void shouldMaskSecretsWhenShowingConfig() {
        assertThat(run("config", "show", "--set", "ssl.keystore.password=very-secret",
                "--set", "schema.registry.basic.auth.user.info=u:also-secret")).isZero();

        assertThat(cli.out()).doesNotContain("very-secret", "also-secret")
                .contains("ssl.keystore.password = [hidden]");
    }

    @Test
    void shouldExitWithUsageCodeNamingKeyWhenSettingIsMisspelt() {
        int code = run("topics", "apply", "--set", "topic.inbox.partitons=3");

        assertThat(code).isEqualTo(2);
        assertThat(cli.err()).contains("topic.inbox.partitons", "topic.inbox.partitions");
    }

    @Test
    void shouldWriteMarkdownReferenceWithAllSections() {
        assertThat(run("config", "reference")).isZero();

        assertThat(cli.out()).startsWith("# Configuration reference").contains("## connection", "## topics");
    }
}
