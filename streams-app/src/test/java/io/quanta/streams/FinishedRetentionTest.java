package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.streams.store.CellKeys;
import io.quanta.streams.testing.SchedulerDriver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * Ended jobs' records leave the cell's stores {@code scheduler.finished.retention.hours} after they ended, checked
 * at each stream hour: kept until the first hour boundary past end + retention, gone from that hour on; active jobs
 * are never touched, and retention 0 keeps everything.
 */
class FinishedRetentionTest {

    private static final String CELL = SchedulerDriver.CELL;
    private static final Duration RETENTION = Duration.ofHours(1);

    private static SchedulerDriver driver(Duration retention) {
        return new SchedulerDriver(SchedulerSettings.defaults().withPolicy("fifo").withFinishedRetention(retention),
                StoreOptions.inMemory());
    }

    /** j1 runs on n1 and completes at {@code at(50)}; j2 starts after it and stays active. */
    private static void finishOneJobAndKeepAnotherWaiting(SchedulerDriver driver) {
        driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
        driver.submit(job("j1", 2).build(), at(1));
        driver.event(event("j1", 1, "n1", JobEventType.STARTED, at(2)));
        driver.event(event("j1", 1, "n1", JobEventType.COMPLETED, at(50)));
        driver.submit(job("j2", 2).build(), at(60));
    }

    private static List<String> ids(SchedulerDriver driver, String store) {
        KeyValueStore<String, Object> kv = driver.driver().getKeyValueStore(store);
        List<String> out = new ArrayList<>();
        try (var it = kv.all()) {
            it.forEachRemaining(e -> out.add(CellKeys.idOf(e.key)));
        }
        return out;
    }

    /** The first stream-hour boundary strictly after {@code ended + retention}: from then on the record is gone. */
    private static Instant expiryHour(Instant ended, Duration retention) {
        long hourMs = Duration.ofHours(1).toMillis();
        return Instant.ofEpochMilli((Math.floorDiv(ended.plus(retention).toEpochMilli(), hourMs) + 1) * hourMs);
    }

    @Test
    void shouldKeepAnEndedJobUntilTheHourAfterItsRetentionAndThenForgetIt() {
        try (SchedulerDriver driver = driver(RETENTION)) {
            finishOneJobAndKeepAnotherWaiting(driver);
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.FINISHED);
            assertThat(ids(driver, SchedulerTopology.FINISHED_JOBS_STORE)).containsExactly("j1");
            assertThat(ids(driver, SchedulerTopology.FINISHED_INDEX_STORE)).singleElement().asString().endsWith("/j1");
            Instant gone = expiryHour(at(50), RETENTION);

            driver.heartbeat(node("n1", CELL, 2, 1, gone.minusSeconds(1)).build());
            assertThat(ids(driver, SchedulerTopology.FINISHED_JOBS_STORE)).containsExactly("j1");

            driver.heartbeat(node("n1", CELL, 2, 1, gone).build());
            assertThat(ids(driver, SchedulerTopology.FINISHED_JOBS_STORE)).isEmpty();
            assertThat(ids(driver, SchedulerTopology.FINISHED_INDEX_STORE)).isEmpty();
            assertThat(ids(driver, SchedulerTopology.JOBS_STORE)).containsExactly("j2");
        }
    }

    @Test
    void shouldKeepEndedJobsForeverWhenRetentionIsZero() {
        try (SchedulerDriver driver = driver(Duration.ZERO)) {
            finishOneJobAndKeepAnotherWaiting(driver);

            driver.heartbeat(node("n1", CELL, 2, 1, at(Duration.ofDays(400).toSeconds())).build());

            assertThat(ids(driver, SchedulerTopology.FINISHED_JOBS_STORE)).containsExactly("j1");
        }
    }

    @Test
    void shouldDefaultToThirtyDays() {
        assertThat(SchedulerSettings.defaults().finishedRetention()).isEqualTo(Duration.ofDays(30));
    }
}
