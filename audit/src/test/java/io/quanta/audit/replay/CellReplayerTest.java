package io.quanta.audit.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.audit.testing.SimulatedLogs;
import io.quanta.schemas.DecisionType;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class CellReplayerTest {

    private static CellLog log(String policy, int jobs) {
        return SimulatedLogs.shared(policy, jobs);
    }

    private static ReplayReport replay(CellLog log, ReplayWindow window) {
        ReplayRun run = CellReplayer.withBuiltInPolicies().run(log, window, StepListener.NONE);
        return ReplayComparison.compare(log, run, window, "test", 5);
    }

    private static Set<DecisionType> types(CellLog log) {
        return log.decisions().stream().map(d -> d.decision().getType()).collect(Collectors.toSet());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fifo", "tiresias-las", "tiresias-gittins", "gandiva", "quanta"})
    void shouldReproduceEveryDecisionWhenReplayingTheLogOfTheRealTopology(String policy) {
        CellLog log = log(policy, 60);

        ReplayReport report = replay(log, ReplayWindow.all());

        assertThat(log.decisions()).hasSizeGreaterThan(60);
        assertThat(report.divergences()).isEmpty();
        assertThat(report.reproduced()).isEqualTo(log.decisions().size());
        assertThat(report.compared()).isEqualTo(log.decisions().size());
        assertThat(report.run().recordsApplied()).isEqualTo(log.inbox().size());
    }

    @Test
    void shouldReproducePreemptionsAndQueueChangesWhenThePolicyIsTiresias() {
        CellLog log = log("tiresias-las", 100);

        ReplayReport report = replay(log, ReplayWindow.all());

        assertThat(types(log)).contains(DecisionType.CONFIG, DecisionType.START, DecisionType.SUSPEND,
                DecisionType.CHANGE_QUEUE, DecisionType.FINISH);
        assertThat(report.allReproduced()).isTrue();
        assertThat(report.reproduced()).isEqualTo(log.decisions().size());
    }

    @Test
    void shouldCompareOnlyTheDecisionsOfTheWindowWhenFromAndToAreGiven() {
        CellLog log = log("tiresias-las", 100);
        long from = log.inbox().get(log.inbox().size() / 3).offset();
        long to = log.inbox().get(2 * log.inbox().size() / 3).offset();
        ReplayWindow window = new ReplayWindow(Optional.of(new LogPosition.Offset(from)),
                Optional.of(new LogPosition.Offset(to)));
        long inWindow = log.decisions().stream().map(RecordedDecision::decision)
                .filter(d -> d.getInboxOffsetTo() >= from && d.getInboxOffsetTo() <= to).count();

        ReplayReport report = replay(log, window);

        assertThat(inWindow).isPositive();
        assertThat(report.compared()).isEqualTo(inWindow);
        assertThat(report.reproduced()).isEqualTo(inWindow);
        assertThat(report.run().lastOffset()).isLessThanOrEqualTo(to);
    }

    @Test
    void shouldCompareTheDecisionsOfATimeWindowWhenGivenInstants() {
        CellLog log = log("fifo", 60);
        RecordedDecision middle = log.decisions().get(log.decisions().size() / 2);
        ReplayWindow window = new ReplayWindow(Optional.of(new LogPosition.Time(middle.decision().getStreamTime())),
                Optional.empty());
        long after = log.decisions().stream()
                .filter(d -> !d.decision().getStreamTime().isBefore(middle.decision().getStreamTime())).count();

        ReplayReport report = replay(log, window);

        assertThat(report.compared()).isEqualTo(after);
        assertThat(report.allReproduced()).isTrue();
    }
}
