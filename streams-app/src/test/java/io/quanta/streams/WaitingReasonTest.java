package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
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
            assertThat(driver.lastStatus("b").getReason()).as("its position as of the last change of what blocks it")
                    .isEqualTo("priority 1 of 1 waiting (arrival #2): needs 2 GPUs at once; 0 of 4 GPUs are free");
            assertThat(driver.lastStatus("c").getReason()).isEqualTo("priority 2 of 2 waiting (arrival #3): behind "
                    + "job b, which cannot start yet (fifo starts jobs strictly in order)");
        }
    }

    @Test
    void shouldSayGpusAreBeingFreedWhileAPreemptedJobSuspends() {
        try (SchedulerDriver driver = withPolicy(Map.of("policy", "tiresias-las", "tiresias.thresholds", "100"))) {
            preemptADemotedJob(driver);

            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.SUSPENDING);
            assertThat(driver.lastStatus("b").getReason()).startsWith("priority 1 of 1 waiting (queue 0")
                    .endsWith("GPUs are being freed for it (running jobs of lower priority are suspending)");
        }
    }

    @Test
    void shouldSayWhenFreeGpusAreNotAPlacementTheRuleAllows() {
        try (SchedulerDriver driver = withPolicy(Map.of("policy", "tiresias-las",
                "placement.strategy", "consolidated"))) {
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
            assertThat(driver.lastStatus("pair").getReason()).contains("needs 2 GPUs at once; 2 of 4 GPUs are free "
                    + "(at most 1 on one server), but not in a placement the rule allows (it must run on as few "
                    + "servers as possible (consolidated placement) until it has waited 5 min, at "
                    + at(4).plusSeconds(300) + ", then any free GPUs will do)");
        }
    }

    @Test
    void shouldSayAPreemptedJobWaitsBehindJobsOfLowerLevelsUnderLas() {
        try (SchedulerDriver driver = withPolicy(Map.of("policy", "tiresias-las", "tiresias.thresholds", "100"))) {
            preemptADemotedJob(driver);
            driver.event(event("a", 1, "n1", JobEventType.SUSPENDED, at(61)));
            driver.event(event("b", 1, "n1", JobEventType.STARTED, at(62)));

            assertThat(driver.lastStatus("b").getState()).isEqualTo(JobState.RUNNING);
            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.QUEUED);
            assertThat(driver.lastStatus("a").getReason()).isEqualTo("priority 2 of 2 waiting (queue 1, attained 122 "
                    + "GPU-s): level 1 behind 1 job with less attained service; needs 2 GPUs at once; 0 of 2 GPUs are "
                    + "free");
        }
    }

    @Test
    void shouldSayAJobBeyondItsTenantsQuotaWaitsForTheQuotaUnderQuanta() {
        try (SchedulerDriver driver = withPolicy(Map.of("policy", "quanta", "quota.vision", "2"))) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("v1", 2).setTenant("vision").build(), at(1));
            driver.submit(job("v2", 2).setTenant("vision").build(), at(2));
            driver.submit(job("v3", 2).setTenant("vision").build(), at(3));

            assertThat(driver.lastStatus("v2").getState()).as("borrows the idle GPUs").isEqualTo(JobState.STARTING);
            assertThat(driver.lastStatus("v3").getState()).isEqualTo(JobState.QUEUED);
            assertThat(driver.lastStatus("v3").getReason()).isEqualTo("priority 1 of 1 waiting (queue 0, attained 0 "
                    + "GPU-s, beyond quota of tenant vision): tenant quota 4 GPUs in use of 2 (tenant vision; beyond "
                    + "its quota a job only borrows idle GPUs); needs 2 GPUs at once; 0 of 4 GPUs are free");
        }
    }

    @Test
    void shouldPublishAWaitingJobsReasonAgainOnlyWhenWhatBlocksItChangesNotWhenOthersArrive() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("a", 4).build(), at(1));
            driver.submit(job("b", 2).build(), at(2));
            for (int i = 0; i < 20; i++) {
                driver.submit(job("later-" + i, 1).build(), at(3 + i));
            }

            List<String> reasonsOfB = driver.statuses().stream().filter(s -> s.getJobId().equals("b"))
                    .map(s -> s.getReason()).toList();
            assertThat(reasonsOfB).as("one status, queued with its reason; the 20 arrivals behind it change its "
                    + "rank's count but not what blocks it").hasSize(1);
            assertThat(reasonsOfB.getLast())
                    .isEqualTo("priority 1 of 1 waiting (arrival #2): needs 2 GPUs at once; 0 of 4 GPUs are free");

            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(30)));
            driver.event(event("a", 1, "n1", JobEventType.COMPLETED, at(31)));
            assertThat(driver.lastStatus("b").getState()).as("what blocked it is gone").isEqualTo(JobState.STARTING);
        }
    }

    private static SchedulerDriver withPolicy(Map<String, String> policy) {
        return new SchedulerDriver(SchedulerSettings.defaults().withPolicy(PolicyConfig.of(policy)),
                StoreOptions.inMemory());
    }

    /**
     * On a 2-GPU node, job a runs for a minute (past the 100 GPU-s threshold: down to queue 1), then job b of queue 0
     * arrives and preempts it.
     */
    private static void preemptADemotedJob(SchedulerDriver driver) {
        driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
        driver.submit(job("a", 2).build(), at(0));
        driver.event(event("a", 1, "n1", JobEventType.STARTED, at(0)));
        driver.heartbeat(node("n1", CELL, 2, 1, at(55)).setRunning(List.of(running("a", 1, 0, 1))).build());
        driver.submit(job("b", 2).build(), at(60));
    }
}
