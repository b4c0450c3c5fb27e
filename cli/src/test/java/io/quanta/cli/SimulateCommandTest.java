package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.sim.SimulationOptions;
import io.quanta.sim.engine.FidelityMode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SimulateCommandTest {

    @Test
    void shouldParseEveryFlagIntoOptions() {
        SimulationOptions o = parse("--trace", "t.csv", "--cluster", "1x2x4", "--policy",
            "fifo", "--param", "placement.strategy=consolidated", "--seed", "9", "--model", "tiresias-compatible",
            "--out", "o", "--limit", "10", "--no-progress");

        assertThat(o.cluster().totalGpus()).isEqualTo(8);
        assertThat(o.policies()).containsExactly("fifo");
        assertThat(o.policyParams("fifo")).containsEntry("placement.strategy", "consolidated")
                .containsEntry("policy", "fifo");
        assertThat(o.seed()).isEqualTo(9);
        assertThat(o.mode()).isEqualTo(FidelityMode.TIRESIAS_COMPATIBLE);
        assertThat(o.limit()).isEqualTo(10);
        assertThat(o.progress()).isFalse();
    }

    @Test
    void shouldNameTheProblemWhenAFlagOrParameterIsBad() {
        assertThatThrownBy(() -> parse("--cluster", "2x2x2"))
                .hasMessageContaining("--trace");
        assertThatThrownBy(() -> parse("--trace", "t", "--policy", "nope"))
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> parse("--trace", "t", "--param",
            "tiresias.thresholds=9,1")).hasMessageContaining("tiresias.thresholds");
        assertThatThrownBy(() -> parse("--trace", "t", "--model", "exact"))
                .hasMessageContaining("tiresias-compatible");
    }

    private static SimulationOptions parse(String... args) {
        SimulateCommand command = new SimulateCommand();
        new CommandLine(command).parseArgs(args);
        return command.options();
    }
}
