package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.running;
import static io.quanta.streams.testing.Records.telemetry;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * The inputs that arrive all the time and usually change nothing (issue 17, item 4): a steady job's telemetry writes
 * no state and runs no pass; a heartbeat that repeats what the cell knows runs no pass and writes only the node's
 * liveness (its record and the cell's heartbeat clock, which a restarted instance needs to declare the same nodes
 * lost at the same inputs). Store writes are counted as records on the changelog topics.
 */
class QuietInputsTest {

    @Test
    void shouldWriteNoStateAndRunNoPassWhenTelemetryRepeatsTheThroughput() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("tiresias-las")) {
            NodeCommand start = runningJob(driver);
            driver.telemetry(telemetry("j1", start.getAttempt(), "n1", 10.0, at(3)));
            drainChangelogs(driver);
            long passes = driver.meta(SchedulerDriver.CELL).passes();
            driver.forget();

            for (int i = 0; i < 50; i++) {
                driver.telemetry(telemetry("j1", start.getAttempt(), "n1", 10.0 + (i % 3) * 0.01, at(3)));
            }

            assertThat(drainChangelogs(driver)).as("changelog records written by 50 unchanged telemetry records")
                    .isEmpty();
            assertThat(driver.meta(SchedulerDriver.CELL).passes()).isEqualTo(passes);
            assertThat(driver.decisions()).isEmpty();
            assertThat(driver.commands()).isEmpty();
            assertThat(driver.statuses()).isEmpty();
        }
    }

    @Test
    void shouldRunNoPassAndWriteOnlyLivenessWhenAHeartbeatRepeatsWhatTheCellKnows() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("tiresias-las")) {
            NodeCommand start = runningJob(driver);
            driver.heartbeat(beat(start, 11)); // a new quantum: the pass the STARTED event left pending runs here
            drainChangelogs(driver);
            long passes = driver.meta(SchedulerDriver.CELL).passes();
            driver.forget();

            for (int i = 0; i < 20; i++) {
                driver.heartbeat(beat(start, 12 + i)); // across two more quanta
            }

            Map<String, Integer> writes = drainChangelogs(driver);
            assertThat(writes.keySet()).as("stores written by 20 heartbeats that change nothing")
                    .isNotEmpty().allMatch(t -> t.endsWith("-scheduler-nodes-changelog")
                            || t.endsWith("-scheduler-cell-meta-changelog"));
            assertThat(driver.meta(SchedulerDriver.CELL).passes()).isEqualTo(passes);
            assertThat(driver.decisions()).isEmpty();
            assertThat(driver.commands()).isEmpty();
            assertThat(driver.statuses()).isEmpty();
        }
    }

    private static io.quanta.schemas.NodeHeartbeat beat(NodeCommand start, long second) {
        return node("n1", SchedulerDriver.CELL, 2, 1, at(second)).setRunning(List.of(running("j1",
                start.getAttempt(), start.getGpuIndices().getFirst()))).build();
    }

    /** Node n1 (2 GPUs) registered and job j1 (1 GPU) started and reported STARTED, all by second 2. */
    private static NodeCommand runningJob(SchedulerDriver driver) {
        driver.heartbeat(node("n1", SchedulerDriver.CELL, 2, 1, at(0)).build());
        driver.submit(job("j1", 1).build(), at(1));
        NodeCommand start = driver.commands().stream().filter(c -> c.getType() == NodeCommandType.START)
                .findFirst().orElseThrow();
        driver.event(event("j1", start.getAttempt(), "n1", JobEventType.STARTED, at(2)));
        return start;
    }

    /** Reads every changelog topic written so far: records per topic (topics with none left out). */
    private static Map<String, Integer> drainChangelogs(SchedulerDriver driver) {
        Map<String, Integer> out = new TreeMap<>();
        for (String topic : driver.driver().producedTopicNames()) {
            if (topic.endsWith("-changelog")) {
                int n = driver.driver().createOutputTopic(topic, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer()).readRecordsToList().size();
                if (n > 0) {
                    out.put(topic, n);
                }
            }
        }
        return out;
    }
}
