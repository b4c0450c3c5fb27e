package io.quanta.audit.trace;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.InboxRecord;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.SchedulingDecision;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Derives a workload trace in the common CSV format ({@code job_id,submit_time_s,num_gpus,duration_s,status,user,
 * virtual_cluster}, see the traces README) from cells' logs, so {@code quanta simulate --compare} can replay what was
 * submitted under other policies. Per job: the submission (time, GPUs, tenant), the scheduler's FINISH record
 * (attained GPU-seconds, final state), the nodes' events (run intervals of unfinished jobs) and telemetry
 * (minibatches done).
 *
 * <p>The duration is the job's service at full speed on a consolidated placement, what the simulator expects: the
 * telemetry figure (minibatches done, plus the tail since the last report at the last rate, times the profile's
 * minibatch time) when the job reported telemetry and its profile gives a minibatch time; else the observed run time
 * (which overstates the work of a job slowed by a spread placement or packing); for a job that never ran, its
 * expected duration when the submission gave one (otherwise the job is left out). Rejected jobs are left out.
 */
public final class TraceExporter {

    /** The CSV header: the common columns, then the derivation columns (ignored by trace loaders). */
    public static final String HEADER = "job_id,submit_time_s,num_gpus,duration_s,status,user,virtual_cluster,"
            + "observed_run_s,full_speed_s,duration_source,cell";

    private TraceExporter() {
    }

    /** The jobs submitted within [{@code from}, {@code to}] (each optional) in the logs, sorted by submit time. */
    public static List<TraceRow> rows(List<CellLog> logs, Optional<Instant> from, Optional<Instant> to) {
        List<TraceRow> rows = new ArrayList<>();
        for (CellLog log : logs) {
            Map<String, JobFacts> jobs = facts(log);
            for (JobFacts job : jobs.values()) {
                Instant at = job.submitted.getSubmittedAt();
                if (from.map(at::isBefore).orElse(false) || to.map(at::isAfter).orElse(false)) {
                    continue;
                }
                job.row(log.cellId()).ifPresent(rows::add);
            }
        }
        rows.sort(Comparator.comparing(TraceRow::submittedAt).thenComparing(TraceRow::jobId));
        return rows;
    }

    /** Writes the rows as CSV; submit times are whole seconds since the first row's submission. */
    public static void writeCsv(List<TraceRow> rows, Writer out) {
        try {
            out.write(HEADER);
            out.write('\n');
            Instant origin = rows.isEmpty() ? Instant.EPOCH : rows.get(0).submittedAt();
            for (TraceRow r : rows) {
                long submit = Math.floorDiv(r.submittedAt().toEpochMilli() - origin.toEpochMilli(), 1000);
                out.write(String.join(",", csv(r.jobId()), Long.toString(submit), Integer.toString(r.numGpus()),
                        Long.toString(r.durationSeconds()), r.status(), "", csv(r.tenant()),
                        number(r.observedRunSeconds()), number(r.fullSpeedSeconds()), r.source(),
                        csv(r.cellId())));
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, JobFacts> facts(CellLog log) {
        Map<String, JobFacts> jobs = new LinkedHashMap<>();
        long lastTime = 0;
        for (InboxRecord r : log.inbox()) {
            lastTime = Math.max(lastTime, r.timestampMs());
            if (!r.appliesTo(log.cellId())) {
                continue;
            }
            CellInput input = r.input();
            switch (input.getInput()) {
                case JobSubmitted s -> jobs.putIfAbsent(s.getJobId(), new JobFacts(s));
                case JobEvent e -> withJob(jobs, e.getJobId(), j -> j.event(e));
                case JobTelemetry t -> withJob(jobs, t.getJobId(), j -> j.telemetry(t));
                default -> {
                    // heartbeats and cancellations: the FINISH record says how a job ended
                }
            }
        }
        for (RecordedDecision d : log.decisions()) {
            SchedulingDecision decision = d.decision();
            if (decision.getJobId() != null && (decision.getType() == DecisionType.FINISH
                    || decision.getType() == DecisionType.REJECT)) {
                withJob(jobs, decision.getJobId(), j -> j.finished(decision));
            }
        }
        long end = lastTime;
        jobs.values().forEach(j -> j.logEndMs = end);
        return jobs;
    }

    private static void withJob(Map<String, JobFacts> jobs, String jobId, java.util.function.Consumer<JobFacts> f) {
        JobFacts job = jobs.get(jobId);
        if (job != null) {
            f.accept(job);
        }
    }

    private static String number(double value) {
        return value < 0 ? "" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String csv(String text) {
        return text == null ? "" : text.replace(',', ';').replace('\n', ' ');
    }

    /** What the log says about one job. */
    private static final class JobFacts {
        final JobSubmitted submitted;
        final Map<Integer, long[]> runs = new HashMap<>();
        SchedulingDecision finish;
        long minibatches = -1;
        double lastRate;
        long lastReportMs;
        long logEndMs;

        JobFacts(JobSubmitted submitted) {
            this.submitted = submitted;
        }

        void event(JobEvent e) {
            long at = e.getAt().toEpochMilli();
            long[] run = runs.computeIfAbsent(e.getAttempt(), a -> new long[] {-1, -1});
            if (e.getType() == JobEventType.STARTED) {
                run[0] = run[0] < 0 ? at : Math.min(run[0], at);
            } else if (e.getType() != JobEventType.COMMAND_IGNORED && run[0] >= 0 && run[1] < 0) {
                run[1] = at;
            }
        }

        void telemetry(JobTelemetry t) {
            if (t.getMinibatchesDone() >= minibatches) {
                minibatches = t.getMinibatchesDone();
                lastRate = t.getMinibatchesPerSecond();
                lastReportMs = t.getReportedAt().toEpochMilli();
            }
        }

        void finished(SchedulingDecision d) {
            finish = d;
        }

        Optional<TraceRow> row(String cellId) {
            if (finish != null && finish.getType() == DecisionType.REJECT) {
                return Optional.empty();
            }
            double observed = observedSeconds();
            double fullSpeed = fullSpeedSeconds();
            String status = status(observed);
            double duration;
            String source;
            if (fullSpeed > 0) {
                duration = fullSpeed;
                source = "telemetry";
            } else if (observed > 0) {
                duration = observed;
                source = "observed";
            } else if (submitted.getExpectedDurationSeconds() != null) {
                duration = submitted.getExpectedDurationSeconds();
                source = "expected";
            } else {
                return Optional.empty();
            }
            return Optional.of(new TraceRow(submitted.getJobId(), submitted.getSubmittedAt(), submitted.getNumGpus(),
                    Math.max(1, Math.round(duration)), status, submitted.getTenant(), observed, fullSpeed, source,
                    cellId));
        }

        private String status(double observed) {
            if (finish != null) {
                return switch (finish.getDetails().getOrDefault("state", "")) {
                    case "FINISHED" -> "SUCCEEDED";
                    case "FAILED" -> "FAILED";
                    case "CANCELLED" -> "CANCELLED";
                    default -> finish.getDetails().getOrDefault("state", "UNKNOWN");
                };
            }
            return observed > 0 ? "RUNNING" : "QUEUED";
        }

        /** Attained GPU-seconds / GPUs from the FINISH record, else the run intervals of the events. */
        private double observedSeconds() {
            if (finish != null && finish.getDetails().containsKey("attainedGpuSeconds")) {
                double gpuSeconds = Double.parseDouble(finish.getDetails().get("attainedGpuSeconds"));
                return gpuSeconds > 0 ? gpuSeconds / submitted.getNumGpus() : -1;
            }
            long total = 0;
            for (long[] run : runs.values()) {
                if (run[0] >= 0) {
                    total += (run[1] >= 0 ? run[1] : logEndMs) - run[0];
                }
            }
            return total > 0 ? total / 1000.0 : -1;
        }

        private double fullSpeedSeconds() {
            Double millis = submitted.getProfile().getMinibatchMillis();
            if (minibatches < 0 || millis == null || millis <= 0) {
                return -1;
            }
            long end = -1;
            for (long[] run : runs.values()) {
                end = Math.max(end, run[1]);
            }
            double tail = end > lastReportMs && finish != null ? lastRate * (end - lastReportMs) / 1000.0 : 0;
            return (minibatches + tail) * millis / 1000.0;
        }
    }
}
