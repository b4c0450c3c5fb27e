package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.node.NodeConfigSection;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The flags of {@code quanta node} set their {@code node.*} keys, typed as before, and only when given. */
class SettingFlagsTest {

    @Test
    void shouldSetTheKeyOfEachGivenFlagAndNoOther() {
        NodeAgentCommand node = new NodeAgentCommand();

        new CommandLine(node).parseArgs("--cell", "cell-b", "--gpus", "4", "--speed", "600", "--work-dir", "/tmp/w");

        assertThat(NodeAgentCommand.FLAGS.settings(node.flags)).containsExactly(
                Map.entry(NodeConfigSection.CELL, "cell-b"), Map.entry(NodeConfigSection.GPUS, "4"),
                Map.entry(NodeConfigSection.SIM_SPEED, "600.0"), Map.entry(NodeConfigSection.WORK_DIR, "/tmp/w"));
    }

    @Test
    void shouldSetNothingWhenNoFlagIsGiven() {
        NodeAgentCommand node = new NodeAgentCommand();

        new CommandLine(node).parseArgs();

        assertThat(NodeAgentCommand.FLAGS.settings(node.flags)).isEmpty();
    }

    @Test
    void shouldRefuseAValueOfTheWrongTypeNamingTheFlag() {
        CommandLine cmd = new CommandLine(new NodeAgentCommand());

        assertThatThrownBy(() -> cmd.parseArgs("--gpus", "eight"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--gpus").hasMessageContaining("eight");
    }
}
