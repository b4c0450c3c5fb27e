package io.quanta.audit.explain;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.InboxRecord;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.audit.replay.CellReplayer;
import io.quanta.audit.replay.ReplayComparison;
import io.quanta.audit.replay.ReplayReport;
import io.quanta.audit.replay.ReplayReportWriter;
import io.quanta.audit.replay.ReplayWindow;
import io.quanta.audit.replay.StepListener;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.JobCancelRequested;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.SchedulingDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's timeline: every input about it and every recorded decision about it (its own, and packings that name it as
 * a partner), in the order the scheduler handled them, each with the reason and the job's attained service at that
 * moment. The decisions and reasons are the recorded ones; the state and attained service come from replaying the
 * cell's inbox (the log records no service figures), and the replay's verdict says whether they can be trusted.
 *
 * @param jobId   the job
 * @param cellId  its cell
 * @param entries the timeline, in order
 * @param replay  the replay verdict over the whole log
 */
public record JobTimeline(String jobId, String cellId, List<TimelineEntry> entries, ReplayReport replay) {

    public JobTimeline {
        entries = List.copyOf(entries);
    }

    /** Builds the timeline of {@code jobId} from its cell's log. */
    public static JobTimeline of(CellLog log, String jobId, CellReplayer replayer, String source) {
        Map<Long, List<SchedulingDecision>> decided = new HashMap<>();
        for (RecordedDecision d : log.decisions()) {
            if (concerns(d.decision(), jobId)) {
                decided.computeIfAbsent(d.decision().getInboxOffsetTo(), o -> new ArrayList<>()).add(d.decision());
            }
        }
        Collector collector = new Collector(jobId, decided);
        var run = replayer.run(log, ReplayWindow.all(), collector);
        ReplayReport verdict = ReplayComparison.compare(log, run, ReplayWindow.all(), source, 1);
        return new JobTimeline(jobId, log.cellId(), collector.entries, verdict);
    }

    /** True when some entry exists (the job is known in the cell). */
    public boolean found() {
        return !entries.isEmpty();
    }

    private static boolean concerns(SchedulingDecision d, String jobId) {
        return jobId.equals(d.getJobId()) || d.getSharingWith().contains(jobId);
    }

    /** Gathers entries as the replay goes. */
    private static final class Collector implements StepListener {
        private final String jobId;
        private final Map<Long, List<SchedulingDecision>> decided;
        private final List<TimelineEntry> entries = new ArrayList<>();
        private JobStatus last;

        Collector(String jobId, Map<Long, List<SchedulingDecision>> decided) {
            this.jobId = jobId;
            this.decided = decided;
        }

        @Override
        public void step(InboxRecord record, List<SchedulingDecision> decisions, List<JobStatus> statuses) {
            for (JobStatus s : statuses) {
                if (s.getJobId().equals(jobId)) {
                    last = s;
                }
            }
            String input = inputAbout(record.input());
            if (input != null) {
                entries.add(entry(record.timestamp(), record.offset(), -1, input,
                        last == null ? "" : last.getReason()));
            }
            for (SchedulingDecision d : decided.getOrDefault(record.offset(), List.of())) {
                entries.add(entry(d.getStreamTime(), record.offset(), d.getSeq(), DecisionText.what(d, jobId),
                        d.getReason()));
            }
        }

        private TimelineEntry entry(java.time.Instant time, long offset, long seq, String what, String reason) {
            return new TimelineEntry(time, offset, seq, what, last == null ? "" : last.getState().name(),
                    last == null ? 0 : last.getQueueLevel(), last == null ? 0.0 : last.getAttainedGpuSeconds(),
                    reason);
        }

        private String inputAbout(CellInput input) {
            return switch (input.getInput()) {
                case JobSubmitted s when s.getJobId().equals(jobId) -> "submitted (" + s.getNumGpus() + " GPUs, "
                        + "tenant " + s.getTenant() + ", model " + s.getProfile().getModelName() + ")";
                case JobCancelRequested c when c.getJobId().equals(jobId) -> "cancel requested"
                        + (c.getReason() == null ? "" : ": " + c.getReason());
                case JobEvent e when e.getJobId().equals(jobId) -> "node " + e.getNodeId() + " reports "
                        + e.getType() + " of attempt " + e.getAttempt()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage());
                default -> null;
            };
        }
    }

    /** Renders decisions for a timeline. */
    static final class DecisionText {
        private DecisionText() {
        }

        static String what(SchedulingDecision d, String jobId) {
            String gpus = ReplayReportWriter.gpus(d.getGpus());
            if (!jobId.equals(d.getJobId())) {
                return d.getType() + " of " + d.getJobId() + " shares this job's GPUs " + gpus;
            }
            return switch (d.getType()) {
                case START -> "START attempt " + d.getAttempt() + " on " + gpus;
                case PACK -> "PACK attempt " + d.getAttempt() + " on " + gpus + " with "
                        + String.join(",", d.getSharingWith());
                case SUSPEND -> "SUSPEND (preemption) from " + gpus;
                case MIGRATE -> "MIGRATE from " + ReplayReportWriter.gpus(d.getFromGpus()) + " to " + gpus;
                case CHANGE_QUEUE -> "CHANGE_QUEUE " + d.getDetails().getOrDefault("fromLevel", "?") + " -> "
                        + d.getDetails().getOrDefault("toLevel", "?");
                default -> d.getType().name() + (gpus.isEmpty() ? "" : " " + gpus);
            };
        }
    }
}
