package io.quanta.streams.cell;

import static io.quanta.streams.cell.CellSteps.CELL;
import static io.quanta.streams.cell.CellSteps.heartbeat;
import static io.quanta.streams.cell.CellSteps.started;
import static io.quanta.streams.cell.CellSteps.submission;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.testing.Records;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The cell keeps the job views of its last snapshot and changes them where jobs changed (issue 17): the list must be
 * the one a walk over every active job gives, after every kind of change (submission, start, completion, a job that
 * leaves the cell, time moving or not).
 */
class JobViewListTest {

    @Test
    void shouldKeepTheViewsAWalkOverAllJobsWouldGive() {
        CellSteps kept = new CellSteps();
        CellSteps walked = new CellSteps();
        Random random = new Random(17);
        long t = 1_000_000;
        for (int n = 0; n < 6; n++) {
            both(kept, walked, heartbeat("node-" + n, 8, t), t);
        }
        int submitted = 0;
        int largest = 0;
        for (int i = 0; i < 800; i++) {
            t += 500L * random.nextInt(3); // a third of the steps at the same instant
            CellInput input = next(kept, random, submitted, t);
            if (input.getInput() instanceof io.quanta.schemas.JobSubmitted) {
                submitted++;
            }
            both(kept, walked, input, t);
            List<Job> incremental = SnapshotBuilder.build(kept.cell, t).jobs();
            // another filter instance makes the cell build its views again from all its jobs
            List<Job> fromAllJobs = walked.cell.jobViews(t, j -> SnapshotBuilder.placeable(j));
            assertThat(incremental).as("views after step %d at %d", i, t).isEqualTo(fromAllJobs);
            largest = Math.max(largest, incremental.size());
        }
        assertThat(largest).as("the cell held many jobs at once").isGreaterThan(40);
        assertThat(kept.commands).as("jobs were started and finished")
                .anyMatch(c -> c.getType() == NodeCommandType.START);
        assertThat(kept.statuses).anyMatch(s -> s.getState().toString().equals(JobState.FINISHED.name()));
    }

    @Test
    void shouldGiveTheSameListWhenNothingChanged() {
        CellSteps steps = new CellSteps();
        steps.step(heartbeat("node-0", 8, 1_000), 1_000);
        steps.step(submission("j1", 1), 1_000);
        steps.step(submission("j2", 8), 1_000); // waits: j1 holds one of the cell's 8 GPUs
        List<Job> first = SnapshotBuilder.build(steps.cell, 1_000).jobs();
        assertThat(SnapshotBuilder.build(steps.cell, 1_000).jobs()).isSameAs(first);
        List<Job> later = SnapshotBuilder.build(steps.cell, 2_000).jobs();
        assertThat(later).isNotSameAs(first).hasSize(2);
        assertThat(later.get(1).waitingSeconds()).isGreaterThan(first.get(1).waitingSeconds());
    }

    @Test
    void shouldKeepTheViewsWhenManyJobsChangeAtOnce() {
        CellSteps kept = new CellSteps();
        CellSteps walked = new CellSteps();
        both(kept, walked, heartbeat("node-0", 1, 1_000), 1_000);
        for (int i = 0; i < 50; i++) {
            both(kept, walked, submission("job-" + i, 1), 1_000 + i);
            assertThat(SnapshotBuilder.build(kept.cell, 1_000 + i).jobs())
                    .isEqualTo(walked.cell.jobViews(1_000 + i, j -> SnapshotBuilder.placeable(j)));
        }
        int startsBefore = kept.commands.size();
        both(kept, walked, heartbeat("node-1", 64, 2_000), 2_000); // room for every waiting job: one pass starts 49
        assertThat(kept.commands.size() - startsBefore).as("jobs started by one pass").isGreaterThan(32);
        assertThat(SnapshotBuilder.build(kept.cell, 2_000).jobs())
                .isEqualTo(walked.cell.jobViews(2_000, j -> SnapshotBuilder.placeable(j)));
    }

    @Test
    void shouldCountAJobsPreemptionsInItsView() {
        CellSteps steps = new CellSteps();
        steps.step(heartbeat("node-0", 1, 1_000), 1_000);
        steps.step(submission("j1", 1), 1_000);
        steps.step(started("j1", "node-0", 1_000), 1_000);
        assertThat(view(steps, "j1", 1_000).preemptions()).isZero();
        long later = 1_000 + 3_300_000; // j1 attained 3,300 GPU-s: past tiresias' first threshold

        steps.step(submission("j2", 1), later); // j1 is demoted to queue 1 and preempted by j2 of queue 0

        assertThat(steps.commands).anyMatch(c -> c.getType() == NodeCommandType.SUSPEND
                && c.getJobId().toString().equals("j1"));
        assertThat(view(steps, "j1", later).preemptions()).isEqualTo(1);
    }

    @Test
    void shouldGiveANegativeStoredPreemptionCountAsZeroInsteadOfFailingThePass() {
        // Job refuses a negative count; a store written by other code or damaged must not stop the cell's passes
        JobRecord stored = StateSamples.queuedJob().with(j -> j.preemptions = -3);

        assertThat(SnapshotBuilder.job(stored, null, 1_000).preemptions()).isZero();
    }

    private static Job view(CellSteps steps, String id, long t) {
        return SnapshotBuilder.build(steps.cell, t).jobs().stream().filter(j -> j.id().equals(id)).findFirst()
                .orElseThrow();
    }

    /** A submission, the STARTED of a started attempt, or its COMPLETED, at random. */
    private static CellInput next(CellSteps steps, Random random, int submitted, long t) {
        List<NodeCommand> starts = new ArrayList<>();
        for (NodeCommand c : steps.commands) {
            if (c.getType() == NodeCommandType.START) {
                starts.add(c);
            }
        }
        int kind = random.nextInt(5);
        if (starts.isEmpty() || kind < 2) {
            return submission("job-" + submitted, 1 << random.nextInt(4));
        }
        NodeCommand c = starts.get(random.nextInt(starts.size()));
        JobEventType type = kind < 4 ? JobEventType.STARTED : JobEventType.COMPLETED;
        return new CellInput(CELL, Records.event(c.getJobId().toString(), c.getAttempt(), c.getNodeId().toString(),
                type, Instant.ofEpochMilli(t)), null);
    }

    private static void both(CellSteps a, CellSteps b, CellInput input, long t) {
        a.step(input, t);
        b.step(input, t);
    }
}
