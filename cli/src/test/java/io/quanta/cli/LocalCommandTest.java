package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code quanta local} refuses what it cannot run before it starts anything. */
class LocalCommandTest {

    @Test
    void shouldExitWithTheInvalidInputCodeBeforeStartingAnything() {
        CommandRunner cli = new CommandRunner();

        int unknown = cli.run("local", "--only", "broker,registry,kafka-ui");
        String unknownErr = cli.err();
        int missing = cli.run("local", "--only", "broker");

        assertThat(unknown).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownErr).contains("unknown part 'kafka-ui'");
        assertThat(missing).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("broker and registry are always needed");
    }

    @Test
    void shouldRefuseAWorkloadWithoutTheNodesThatPlayIt() {
        CommandRunner cli = new CommandRunner();

        int code = cli.run("local", "--only", "broker,registry,scheduler", "--workload", "pom.xml");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("--workload plays on this cluster's own nodes");
    }
}
