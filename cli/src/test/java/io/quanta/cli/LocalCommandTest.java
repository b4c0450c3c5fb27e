package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.cluster.ClusterShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

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

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "--only broker,registry,scheduler --workload pom.xml | --workload plays on this cluster's own nodes",
        "--clean --keep-data | --clean and --keep-data contradict each other: choose one",
        "--backend cloud | --backend must be simulated or process, got 'cloud'"})
    void shouldRefuseFlagsItCannotRunBeforeStartingAnything(String flags, String reason) {
        CommandRunner cli = new CommandRunner();

        int code = cli.run(("local " + flags).split(" "));

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains(reason);
    }

    @Test
    void shouldTakeTheClusterShapeFromClusterElseFromTheThreeFlags() {
        ClusterShapeOptions named = new ClusterShapeOptions();
        ClusterShapeOptions flags = new ClusterShapeOptions();

        new CommandLine(named).parseArgs("--cluster", "2x3x4", "--racks", "9");
        new CommandLine(flags).parseArgs("--racks", "3", "--gpus", "2");

        assertThat(named.shape()).isEqualTo(new ClusterShape(2, 3, 4));
        assertThat(flags.shape()).isEqualTo(new ClusterShape(3, 4, 2));
    }
}
