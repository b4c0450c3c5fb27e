package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.policy.PolicyConfig;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A waiting job's status says what blocks it now, in the policy's terms, not what happened to it before. */
class WaitingReasonTest {

    private static final String CELL = SchedulerDriver.CELL;

    @Test
    void shouldSayAJobLacksFreeGpusAndTheNextWaitsBehindItUnderFifo() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("a", 4).build(), at(1));
            driver.submit(job("b", 2).build(), at(2));
            driver.submit(job("c", 1).build(), at(3));

            assertThat(driver.lastStatus("b").getState()).isEqualTo(JobState.QUEUED);
            assertThat(driver.lastStatus("b").getReason())
                    .isEqualTo("priority 1 of 2 waiting (arrival #2): needs 2 GPUs at once; 0 of 4 GPUs are free");
            assertThat(driver.lastStatus("c").getReason()).isEqualTo("priority 2 of 2 waiting (arrival #3): behind "
                    + "job b, which cannot start yet (fifo starts jobs strictly in order)");
        }
    }

    @Test
    void shouldSayGpusAreBeingFreedWhileAPreemptedJobSuspends() {
        PolicyConfig las = PolicyConfig.of(Map.of("policy", "tiresias-las", "tiresias.thresholds", "100"));
        try (SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy(las),
                StoreOptions.inMemory())) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("a", 2).build(), at(0));
            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(0)));
            driver.heartbeat(node("n1", CELL, 2, 1, at(55)).setRunning(List.of(running("a", 1, 0, 1))).build());

            driver.submit(job("b", 2).build(), at(60));

            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.SUSPENDING);
            assertThat(driver.lastStatus("b").getReason()).startsWith("priority 1 of 1 waiting (queue 0")
                    .endsWith("GPUs are being freed for it (running jobs of lower priority are suspending)");
        }
    }

    @Test
    void shouldSayWhenFreeGpusAreNotAPlacementTheRuleAllows() {
        PolicyConfig consolidated = PolicyConfig.of(Map.of("policy", "tiresias-las",
                "placement.strategy", "consolidated"));
        try (SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy(consolidated),
                StoreOptions.inMemory())) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.heartbeat(node("n2", CELL, 2, 1, at(0)).build());
            for (String small : List.of("s1", "s2", "s3", "s4")) {
                driver.submit(job(small, 1).build(), at(1));
            }
            var starts = List.copyOf(driver.commands());
            starts.forEach(c -> driver.event(event(c.getJobId(), 1, c.getNodeId(), JobEventType.STARTED, at(2))));
            for (String n : List.of("n1", "n2")) {
                var first = starts.stream().filter(c -> c.getNodeId().equals(n)).findFirst().orElseThrow();
                driver.event(event(first.getJobId(), 1, n, JobEventType.COMPLETED, at(3)));
            }
            driver.submit(job("pair", 2).build(), at(4));

            assertThat(driver.lastStatus("pair").getState()).isEqualTo(JobState.QUEUED);
            assertThat(driver.lastStatus("pair").getReason()).contains("needs 2 GPUs at once; 2 of 4 GPUs are free, "
                    + "but not in a placement the rule allows (it must run on as few servers as possible");
        }
    }
}
