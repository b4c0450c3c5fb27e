package io.quanta.streams.cell;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.Records;
import io.quanta.topics.serde.AvroTrust;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Every change to the cell's meta reaches the store: the value changes, so the flush writes it. */
class CellMetaChangeTest {

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
    private long offset;

    @Test
    void shouldMarkTheMetaForTheStoreWhenOnlyTheHeartbeatClockMoved() {
        step(heartbeat("node-a", 1_000), 1_000);
        step(heartbeat("node-b", 2_000), 2_000);
        step(new CellInput(CELL, Records.job("job-1", 1).build(), null), 9_000); // stream time 9 s

        // older than the stream time, newer than the heartbeat clock; node-a still sets the liveness deadline
        step(heartbeat("node-b", 3_000), 3_000);

        assertThat(cell.meta().heartbeatTimeMs()).isEqualTo(3_000);
        assertThat(cell.meta().timeMs()).isEqualTo(9_000);
        assertThat(cell.metaChanged).as("the moved heartbeat clock is flushed").isTrue();
    }

    @Test
    void shouldNotMarkTheMetaWhenNothingInItChanged() {
        step(heartbeat("node-a", 1_000), 1_000);
        cell.clearChanges();

        cell.changeMeta(m -> m.timeMs = 1_000);

        assertThat(cell.metaChanged).isFalse();
    }

    private void step(CellInput input, long timestamp) {
        cell.clearChanges(); // what CellRepository.flush does after writing, without the stores
        engine.process(cell, input, timestamp, offset++, new Discard());
    }

    private static CellInput heartbeat(String node, long at) {
        return new CellInput(CELL, Records.node(node, CELL, 8, 1, Instant.ofEpochMilli(at)).setRack("r0").build(),
                null);
    }

    private static final class Discard implements CellOutput {
        @Override
        public void command(NodeCommand command) {
        }

        @Override
        public void decision(SchedulingDecision decision) {
        }

        @Override
        public void status(JobStatus status) {
        }

        @Override
        public void deadLetter(String key, DeadLetter deadLetter) {
        }
    }
}
