package io.quanta.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.sim.trace.TraceJob;
import io.quanta.topics.serde.AvroTrust;
import java.time.Instant;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A job's running time in the ledger: the time some node had one of its attempts between STARTED and its end. */
class JobLedgerRunningTest {

    private static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");

    static {
        AvroTrust.trustQuantaSchemas();
    }

    private static JobEvent event(String node, int attempt, JobEventType type, long atSeconds) {
        return JobEvent.newBuilder().setJobId("j").setAttempt(attempt).setNodeId(node).setType(type)
                .setAt(ORIGIN.plusSeconds(atSeconds)).build();
    }

    /** A ledger with one 16-GPU job of 100 s, submitted at 0. */
    private static JobLedger gangLedger() {
        JobLedger ledger = new JobLedger(ORIGIN, 8);
        ledger.submitted(new TraceJob("j", 0, 16, 100, "vc"), "resnet50");
        return ledger;
    }

    @Test
    void shouldCountEachAttemptFromItsFirstNodeStartedToItsLastNodeEndedAndNothingWhileSuspended() {
        JobLedger ledger = gangLedger();

        ledger.event(event("n1", 1, JobEventType.STARTED, 10));
        ledger.event(event("n2", 1, JobEventType.STARTED, 12));
        ledger.event(event("n1", 1, JobEventType.SUSPENDED, 50));
        ledger.event(event("n2", 1, JobEventType.SUSPENDED, 55));
        ledger.event(event("n1", 2, JobEventType.STARTED, 300));
        ledger.event(event("n1", 2, JobEventType.COMPLETED, 370));

        JobOutcome outcome = ledger.outcomes().get(0);
        assertThat(outcome.runningSeconds()).isEqualTo(OptionalDouble.of(45 + 70));
        assertThat(outcome.firstStartSeconds()).isEqualTo(OptionalDouble.of(10));
        // no FINISHED status yet: the job is not finished, so no split of its time
        assertThat(outcome.waitingAfterStartSeconds()).isEmpty();
        assertThat(outcome.runningBeyondSeconds()).isEmpty();
    }

    @Test
    void shouldEndTheRunningTimeWhenTheJobFinishesThoughAGangsOtherNodesHaveNotReportedYet() {
        JobLedger ledger = gangLedger();
        ledger.event(event("n1", 1, JobEventType.STARTED, 10));
        ledger.event(event("n2", 1, JobEventType.STARTED, 11));
        ledger.event(event("n1", 1, JobEventType.COMPLETED, 130));
        ledger.status(JobStatus.newBuilder().setJobId("j").setCellId("cell-0").setState(JobState.FINISHED)
                .setUpdatedAt(ORIGIN.plusSeconds(130)).setFinishedAt(ORIGIN.plusSeconds(130)).build());

        assertThat(ledger.outcomes().get(0).runningSeconds()).isEqualTo(OptionalDouble.of(120));
        ledger.event(event("n2", 1, JobEventType.COMPLETED, 131));
        assertThat(ledger.outcomes().get(0).runningSeconds()).isEqualTo(OptionalDouble.of(120));
        assertThat(ledger.outcomes().get(0).waitingAfterStartSeconds()).isEqualTo(OptionalDouble.of(0));
    }

    @Test
    void shouldNotCountAStartThatANodeReportsAfterTheJobFinished() {
        JobLedger ledger = new JobLedger(ORIGIN, 8);
        ledger.submitted(new TraceJob("j", 0, 1, 100, "vc"), "resnet50");
        ledger.event(event("n1", 1, JobEventType.STARTED, 10));
        ledger.event(event("n1", 1, JobEventType.COMPLETED, 110));
        ledger.status(JobStatus.newBuilder().setJobId("j").setCellId("cell-0").setState(JobState.FINISHED)
                .setUpdatedAt(ORIGIN.plusSeconds(110)).setFinishedAt(ORIGIN.plusSeconds(110)).build());

        // a stale or replayed attempt reported late (a node that restarted from an old command, a duplicated record)
        ledger.event(event("n2", 2, JobEventType.STARTED, 140));
        ledger.event(event("n2", 2, JobEventType.COMPLETED, 200));

        assertThat(ledger.outcomes().get(0).runningSeconds()).isEqualTo(OptionalDouble.of(100));
        assertThat(ledger.outcomes().get(0).runningBeyondSeconds()).isEqualTo(OptionalDouble.of(0));
    }

    @Test
    void shouldGiveZeroRunningForAJobThatNeverStarted() {
        JobLedger ledger = new JobLedger(ORIGIN, 8);
        ledger.submitted(new TraceJob("j", 0, 1, 100, "vc"), "resnet50");

        assertThat(ledger.outcomes().get(0).runningSeconds()).isEqualTo(OptionalDouble.of(0));
    }

    @Test
    void shouldSplitAFinishedJobsTimeIntoFirstQueueWaitingAfterStartAndRunningBeyondItsDuration() {
        JobOutcome o = new JobOutcome("j", "vc", "resnet50", 1, 100, 5, OptionalDouble.of(15), OptionalDouble.of(400),
                1, 0, 1, "FINISHED", OptionalDouble.of(130));

        assertThat(o.queueingDelaySeconds()).isEqualTo(OptionalDouble.of(10));
        assertThat(o.waitingAfterStartSeconds()).isEqualTo(OptionalDouble.of(395 - 10 - 130));
        assertThat(o.runningBeyondSeconds()).isEqualTo(OptionalDouble.of(30));
        assertThat(o.queueingDelaySeconds().getAsDouble() + o.waitingAfterStartSeconds().getAsDouble()
                + o.runningBeyondSeconds().getAsDouble()).isEqualTo(o.jctSeconds().getAsDouble() - 100);
    }
}
