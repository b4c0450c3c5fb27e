package io.quanta.streams.status;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.telemetry;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.status.ActivityLog.Timeline;
import io.quanta.topics.serde.AvroTrust;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ActivityLogTest {

    static {
        AvroTrust.trustQuantaSchemas();
    }

    private final ActivityLog log = new ActivityLog();

    static SchedulingDecision decision(String jobId, long seq, DecisionType type, String reason) {
        return SchedulingDecision.newBuilder().setCellId("cell-0").setSeq(seq).setPolicy("fifo").setConfigHash("h")
                .setType(type).setJobId(jobId).setAttempt(1).setGpus(List.of(new GpuRef("n1", 0)))
                .setReason(reason).setDetails(Map.of("attainedGpuSeconds", "0")).setStreamTime(at(seq)).build();
    }

    static JobStatus status(String jobId, JobState state, long second, String reason) {
        return JobStatus.newBuilder().setJobId(jobId).setState(state).setReason(reason).setAttainedGpuSeconds(second)
                .setUpdatedAt(at(second)).build();
    }

    static DeadLetter deadLetter(byte[] key, String reason, long offset) {
        return DeadLetter.newBuilder().setSourceTopic("quanta.jobs.submissions").setPartition(0).setOffset(offset)
                .setKey(key == null ? null : ByteBuffer.wrap(key)).setValue(ByteBuffer.wrap(new byte[] {1, 2, 3}))
                .setReason(reason).setAt(at(offset)).build();
    }

    @Test
    void shouldKeepStatusesDecisionsAndThroughputOfAJobInOrder() {
        log.status(status("j1", JobState.QUEUED, 1, "waits for 2 GPUs"));
        log.decision(decision("j1", 2, DecisionType.START, "fifo: start"));
        log.status(status("j1", JobState.RUNNING, 3, "started"));
        log.telemetry(telemetry("j1", 1, "n1", 12.5, at(4)));
        log.decision(decision(null, 5, DecisionType.CONFIG, "config"));

        Timeline timeline = log.timeline("j1").orElseThrow();

        assertThat(timeline.statuses()).extracting(ActivityLog.StatusEntry::state).containsExactly("QUEUED", "RUNNING");
        assertThat(timeline.decisions()).singleElement().satisfies(d -> {
            assertThat(d.type()).isEqualTo("START");
            assertThat(d.gpus()).containsExactly("n1/0");
            assertThat(d.reason()).isEqualTo("fifo: start");
        });
        assertThat(timeline.throughput()).singleElement().extracting(ActivityLog.ThroughputSample::minibatchesPerSecond)
                .isEqualTo(12.5);
        assertThat(timeline.truncated()).isFalse();
        assertThat(log.timeline("nobody")).isEmpty();
    }

    @Test
    void shouldReplaceAStatusThatOnlyMovedInTimeAndKeepAChangedReason() {
        log.status(status("j1", JobState.QUEUED, 1, "waits for 2 GPUs"));
        log.status(status("j1", JobState.QUEUED, 2, "waits for 2 GPUs"));
        log.status(status("j1", JobState.QUEUED, 3, "behind job j0"));

        assertThat(log.timeline("j1").orElseThrow().statuses()).extracting(ActivityLog.StatusEntry::at)
                .containsExactly(at(2).toString(), at(3).toString());
    }

    @Test
    void shouldStayBoundedPerJobInJobsAndInDeadLetters() {
        for (int i = 0; i < ActivityLog.MAX_ENTRIES + 7; i++) {
            log.decision(decision("busy", i + 1, DecisionType.SUSPEND, "slice " + i));
        }
        for (int i = 0; i < ActivityLog.MAX_JOBS + 3; i++) {
            log.telemetry(telemetry("job-" + i, 1, "n1", 1.0, at(i)));
        }
        for (int i = 0; i < ActivityLog.MAX_DEAD_LETTERS + 5; i++) {
            log.deadLetter(deadLetter("k".getBytes(StandardCharsets.UTF_8), "bad " + i, i));
        }
        log.status(status("long", JobState.FAILED, 1, "x".repeat(ActivityLog.MAX_TEXT * 3)));

        assertThat(log.jobs()).isEqualTo(ActivityLog.MAX_JOBS);
        assertThat(log.forgotten()).isGreaterThanOrEqualTo(4);
        assertThat(log.timeline("busy")).as("the least recently updated job is forgotten first").isEmpty();
        assertThat(log.timeline("job-0")).isEmpty();
        assertThat(log.timeline("job-" + (ActivityLog.MAX_JOBS + 2))).isPresent();
        assertThat(log.deadLetters(1000)).hasSize(ActivityLog.MAX_DEAD_LETTERS)
                .first().extracting(ActivityLog.DeadLetterEntry::reason).isEqualTo("bad " + (ActivityLog.MAX_DEAD_LETTERS + 4));
        assertThat(log.deadLetters(3)).hasSize(3);
        assertThat(log.timeline("long").orElseThrow().statuses().getFirst().reason())
                .hasSize(ActivityLog.MAX_TEXT + " [cut]".length()).endsWith("[cut]");
    }

    @Test
    void shouldDropOldestEntriesOfAJobAndSayTheTimelineIsTruncated() {
        for (int i = 0; i < ActivityLog.MAX_ENTRIES + 2; i++) {
            log.decision(decision("busy", i + 1, DecisionType.SUSPEND, "slice " + i));
        }

        Timeline timeline = log.timeline("busy").orElseThrow();

        assertThat(timeline.decisions()).hasSize(ActivityLog.MAX_ENTRIES).first()
                .extracting(ActivityLog.DecisionEntry::reason).isEqualTo("slice 2");
        assertThat(timeline.truncated()).isTrue();
    }

    @Test
    void shouldKeepDeadLetterKeysAsBoundedTextAndNeverTheirValues() {
        log.deadLetter(deadLetter(new byte[] {(byte) 0xff, (byte) 0xfe, 0x41}, "not utf-8", 1));
        log.deadLetter(deadLetter("<img src=x onerror=alert(1)>".getBytes(StandardCharsets.UTF_8), "hostile", 2));
        log.deadLetter(deadLetter(null, "no key", 3));
        log.deadLetter(deadLetter("k".repeat(5000).getBytes(StandardCharsets.UTF_8), "long key", 4));

        List<ActivityLog.DeadLetterEntry> letters = log.deadLetters(10);

        assertThat(letters).extracting(ActivityLog.DeadLetterEntry::reason)
                .containsExactly("long key", "no key", "hostile", "not utf-8");
        assertThat(letters.get(0).key()).hasSize(200 + " [cut]".length());
        assertThat(letters.get(1).key()).isNull();
        assertThat(letters.get(2).key()).isEqualTo("<img src=x onerror=alert(1)>");
        assertThat(letters.get(3).key()).isEqualTo("(3 bytes, not UTF-8)");
        assertThat(letters.get(3).valueBytes()).isEqualTo(3);
    }

    @Test
    void shouldSkipThroughputThatIsNotAFiniteNumberAtLeastZero() {
        log.telemetry(telemetry("j1", 1, "n1", Double.NaN, at(1)));
        log.telemetry(telemetry("j1", 1, "n1", -1, at(2)));
        log.telemetry(telemetry("j1", 1, "n1", Double.POSITIVE_INFINITY, at(3)));

        assertThat(log.timeline("j1")).isEmpty();
    }
}
