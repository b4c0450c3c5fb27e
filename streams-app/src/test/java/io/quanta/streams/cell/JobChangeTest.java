package io.quanta.streams.cell;

import static io.quanta.streams.cell.CellSteps.heartbeat;
import static io.quanta.streams.cell.CellSteps.started;
import static io.quanta.streams.cell.CellSteps.submission;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.model.JobState;
import org.junit.jupiter.api.Test;

/**
 * A job changes only as a new value handed to {@link CellState#changeJob}: a different value replaces it and is
 * flushed, the same value is neither (so a change cannot be left out of the store, and an unchanged job is not written
 * again).
 */
class JobChangeTest {

    private final CellSteps steps = new CellSteps();
    private final CellState cell = steps.cell;

    @Test
    void shouldKeepAndMarkTheNewValueWhenAChangeMakesADifferentJob() {
        JobRecord before = startedJobWithNothingToFlush();

        JobRecord after = cell.changeJob("job-1", j -> j.failures++);

        assertThat(after.failures()).isEqualTo(1);
        assertThat(before.failures()).as("the earlier value is a value: unchanged").isZero();
        assertThat(cell.job("job-1")).isSameAs(after);
        assertThat(cell.changedJobs).containsExactly("job-1");
    }

    @Test
    void shouldNeitherReplaceNorMarkAJobWhenTheChangeLeavesItsValue() {
        JobRecord before = startedJobWithNothingToFlush();

        JobRecord same = cell.changeJob("job-1", j -> j.reason = new String(before.reason()));

        assertThat(same).isSameAs(before);
        assertThat(cell.changedJobs).isEmpty();
        assertThat(cell.hasChanges()).isFalse();
    }

    @Test
    void shouldNotWriteTheJobAgainWhenTheSecondMemberOfAGangReportsItsRunningAttemptStarted() {
        steps.step(heartbeat("node-a", 1, 1_000), 1_000);
        steps.step(heartbeat("node-b", 1, 1_000), 1_000);
        steps.step(submission("gang", 2), 2_000);
        assertThat(cell.job("gang").state()).as("placed over both nodes").isEqualTo(JobState.STARTING);
        steps.step(started("gang", "node-a", 3_000), 3_000);
        assertThat(cell.changedJobs).as("first STARTED: the job runs").containsExactly("gang");
        JobRecord running = cell.job("gang");
        steps.statuses.clear();

        steps.step(started("gang", "node-b", 4_000), 4_000);

        assertThat(cell.job("gang")).isSameAs(running);
        assertThat(cell.changedJobs).isEmpty();
        assertThat(cell.changedAssignments).as("the assignment records the second member").containsExactly("gang");
        assertThat(steps.statuses).isEmpty();
    }

    @Test
    void shouldEmitTheStatusOfAJobAsTheStepLeftIt() {
        steps.step(heartbeat("node-a", 1, 1_000), 1_000);

        steps.step(submission("job-1", 1), 2_000); // queued, then started by the pass of the same step

        assertThat(steps.statuses).singleElement().satisfies(s ->
                assertThat(s.getState()).isEqualTo(io.quanta.schemas.JobState.STARTING));
    }

    @Test
    void shouldCopyEveryFieldIntoADraftAndBack() {
        JobRecord sample = StateSamples.job();

        JobRecord copy = sample.with(j -> { });

        assertThat(StateSamples.differences(sample, copy)).isEmpty();
        assertThat(copy).isEqualTo(sample);
    }

    @Test
    void shouldRefuseToChangeAJobThatIsNotActive() {
        assertThatThrownBy(() -> cell.changeJob("nope", j -> j.failures++))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("job nope is not active in cell " + CellSteps.CELL);
    }

    /** job-1 started on a one-GPU node, its changes flushed. */
    private JobRecord startedJobWithNothingToFlush() {
        steps.step(heartbeat("node-a", 1, 1_000), 1_000);
        steps.step(submission("job-1", 1), 2_000);
        cell.clearChanges();
        return cell.job("job-1");
    }
}
