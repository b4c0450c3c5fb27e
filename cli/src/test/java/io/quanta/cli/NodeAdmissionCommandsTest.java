package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code quanta nodes admit} refuses what it cannot do before touching a cluster (the admission itself, on a real
 * broker: {@code SecuredClusterIT.shouldAdmitANodeWithTheCliSoThatItsSignedHeartbeatsCount}).
 */
class NodeAdmissionCommandsTest {

    private final CommandRunner cli = new CommandRunner();

    @Test
    void shouldRefuseToAdmitWithoutTheNodeSecretAndRecordNothing() {
        int code = cli.run("nodes", "admit", "gpu-01", "--bootstrap", "127.0.0.1:1", "--registry",
                "http://127.0.0.1:1");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("no node secret: set scheduler.node.secret.file", "quanta nodes secret FILE");
        assertThat(cli.out()).doesNotContain("admitted", "node.auth.key");
    }

    @Test
    void shouldRefuseABlankNodeId() {
        int code = cli.run("nodes", "admit", " ", "--bootstrap", "127.0.0.1:1");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("invalid node id");
    }
}
