package io.quanta.streams.cell;

import io.quanta.core.config.PolicyConfig;
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

/**
 * One cell and its engine (tiresias-las, 1 s quantum, 30 s node timeout) fed one inbox record at a time, as
 * {@code CellSchedulerProcessor} feeds it but without the stores: the changes of the previous step are cleared before
 * each step (what {@link CellRepository#flush} does after writing), so after a step the cell's change sets hold what
 * that step would flush. Keeps the statuses the steps emit.
 */
final class CellSteps implements CellOutput {

    static final String CELL = "cell-0";

    static {
        AvroTrust.trustQuantaSchemas(); // the engine builds Avro records (decisions, statuses)
    }

    final CellState cell;
    final List<JobStatus> statuses = new ArrayList<>();
    final List<NodeCommand> commands = new ArrayList<>();
    private final CellEngine engine;
    private long offset;

    CellSteps() {
        PolicyConfig config = PolicyConfig.defaults("tiresias-las");
        engine = new CellEngine(PolicyRegistry.builtIn().create(config), Duration.ofSeconds(1),
                Duration.ofSeconds(30), AttemptTimeouts.OFF, ConfigFingerprint.of(config, Duration.ofSeconds(1),
                Duration.ofSeconds(30), Duration.ZERO, "test"), PassTimer.NONE);
        cell = new CellState(CELL, new CellMeta(CELL), config.newServiceDistribution(),
                config.newInterferenceMemory());
    }

    /** Applies one inbox record with this timestamp. */
    void step(CellInput input, long timestamp) {
        cell.clearChanges();
        engine.process(cell, input, timestamp, offset++, this);
    }

    static CellInput heartbeat(String node, int gpus, long at) {
        return new CellInput(CELL, Records.node(node, CELL, gpus, 1, Instant.ofEpochMilli(at)).setRack("r0").build(),
                null);
    }

    static CellInput submission(String id, int gpus) {
        return new CellInput(CELL, Records.job(id, gpus).build(), null);
    }

    /** The STARTED event of attempt 1 of the job from the node. */
    static CellInput started(String id, String node, long at) {
        return new CellInput(CELL, Records.event(id, 1, node, JobEventType.STARTED, Instant.ofEpochMilli(at)), null);
    }

    @Override
    public void command(NodeCommand command) {
        commands.add(command);
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
