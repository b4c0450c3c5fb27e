package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code --run}: the same column twice runs once (evaluate.sh adds its own); one label for two columns is refused. */
class SuiteMainRunsTest {

    private static SuiteMain.Options parse(String... runs) {
        String[] args = new String[4 + runs.length];
        args[0] = "--philly";
        args[1] = "p";
        args[2] = "--alibaba";
        args[3] = "a";
        System.arraycopy(runs, 0, args, 4, runs.length);
        return SuiteMain.parse(args);
    }

    @Test
    void shouldRunTheSameColumnGivenTwiceOnce() {
        SuiteMain.Options options = parse("--run", "tiresias-las", "--run", "quanta", "--run", "tiresias-las",
                "--run", "qmr=quanta:quanta.make-room=on", "--run", "qmr=quanta:quanta.make-room=on");

        assertThat(options.runs()).extracting(RunSpec::label).containsExactly("tiresias-las", "quanta", "qmr");
    }

    @Test
    void shouldRefuseOneLabelForTwoDifferentColumns() {
        assertThatThrownBy(() -> parse("--run", "tiresias-las", "--run", "q=quanta:quanta.make-room=on",
                "--run", "q=quanta:quanta.make-room=off"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("run label 'q' given twice");
    }
}
