package io.quanta.streams.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.model.JobState;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.Records;
import io.quanta.topics.serde.AvroTrust;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job changes only as a new value handed to {@link CellState#changeJob}: a different value replaces it and is
 * flushed, the same value is neither (so a change cannot be left out of the store, and an unchanged job is not written
 * again).
 */
class JobChangeTest {

    private static final String CELL = "cell-0";

    static {
        AvroTrust.trustQuantaSchemas(); // the engine builds Avro records (decisions, statuses)
    }

    private final PolicyConfig config = PolicyConfig.defaults("tiresias-las");
    private final CellEngine engine = new CellEngine(PolicyRegistry.builtIn().create(config), Duration.ofSeconds(1),
            Duration.ofSeconds(30), AttemptTimeouts.OFF, ConfigFingerprint.of(config, Duration.ofSeconds(1),
            Duration.ofSeconds(30), Duration.ZERO, "test"), PassTimer.NONE);
    private final CellState cell = new CellState(CELL, new CellMeta(CELL), config.newServiceDistribution(),
            config.newInterferenceMemory());
    private final List<JobStatus> statuses = new ArrayList<>();
    private long offset;

    @Test
    void shouldKeepAndMarkTheNewValueWhenAChangeMakesADifferentJob() {
        step(heartbeat("node-a", 1, 1_000), 1_000);
        step(submission("job-1", 1), 2_000);
        cell.clearChanges();
        JobRecord before = cell.job("job-1");

        JobRecord after = cell.changeJob("job-1", j -> j.failures++);

        assertThat(after.failures()).isEqualTo(1);
        assertThat(before.failures()).as("the earlier value is a value: unchanged").isZero();
        assertThat(cell.job("job-1")).isSameAs(after);
        assertThat(cell.changedJobs).containsExactly("job-1");
    }

    @Test
    void shouldNeitherReplaceNorMarkAJobWhenTheChangeLeavesItsValue() {
        step(heartbeat("node-a", 1, 1_000), 1_000);
        step(submission("job-1", 1), 2_000);
        cell.clearChanges();
        JobRecord before = cell.job("job-1");

        JobRecord same = cell.changeJob("job-1", j -> j.reason = new String(before.reason()));

        assertThat(same).isSameAs(before);
        assertThat(cell.changedJobs).isEmpty();
        assertThat(cell.hasChanges()).isFalse();
    }

    @Test
    void shouldNotWriteTheJobAgainWhenTheSecondMemberOfAGangReportsItsRunningAttemptStarted() {
        step(heartbeat("node-a", 1, 1_000), 1_000);
        step(heartbeat("node-b", 1, 1_000), 1_000);
        step(submission("gang", 2), 2_000);
        assertThat(cell.job("gang").state()).as("placed over both nodes").isEqualTo(JobState.STARTING);
        step(started("gang", "node-a", 3_000), 3_000);
        assertThat(cell.changedJobs).as("first STARTED: the job runs").containsExactly("gang");
        JobRecord running = cell.job("gang");
        statuses.clear();

        step(started("gang", "node-b", 4_000), 4_000);

        assertThat(cell.job("gang")).isSameAs(running);
        assertThat(cell.changedJobs).isEmpty();
        assertThat(cell.changedAssignments).as("the assignment records the second member").containsExactly("gang");
        assertThat(statuses).isEmpty();
    }

    @Test
    void shouldEmitTheStatusOfAJobAsTheStepLeftIt() {
        step(heartbeat("node-a", 1, 1_000), 1_000);

        step(submission("job-1", 1), 2_000); // queued, then started by the pass of the same step

        assertThat(statuses).singleElement().satisfies(s ->
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
                .hasMessage("job nope is not active in cell " + CELL);
    }

    private void step(CellInput input, long timestamp) {
        cell.clearChanges(); // what CellRepository.flush does after writing, without the stores
        engine.process(cell, input, timestamp, offset++, new KeepStatuses());
    }

    private static CellInput heartbeat(String node, int gpus, long at) {
        return new CellInput(CELL, Records.node(node, CELL, gpus, 1, Instant.ofEpochMilli(at)).setRack("r0").build(),
                null);
    }

    private static CellInput submission(String id, int gpus) {
        return new CellInput(CELL, Records.job(id, gpus).build(), null);
    }

    private static CellInput started(String id, String node, long at) {
        return new CellInput(CELL, Records.event(id, 1, node, JobEventType.STARTED, Instant.ofEpochMilli(at)), null);
    }

    /** Keeps the statuses, drops the rest. */
    private final class KeepStatuses implements CellOutput {
        @Override
        public void command(NodeCommand command) {
        }

        @Override
        public void decision(SchedulingDecision decision) {
        }

        @Override
        public void status(JobStatus status) {
            statuses.add(status);
        }

        @Override
        public void deadLetter(String key, DeadLetter deadLetter) {
        }
    }
}
