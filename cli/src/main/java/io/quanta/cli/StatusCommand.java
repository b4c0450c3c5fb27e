package io.quanta.cli;

import io.quanta.cli.client.AvroJson;
import io.quanta.cli.client.Durations;
import io.quanta.cli.client.JobClient;
import io.quanta.cli.client.Table;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code quanta status [JOB]}: the state of one job (all its fields) or a table of jobs, read from the compacted
 * {@code quanta.jobs.status} topic, so it works against any cluster with only Kafka and the registry. Exit code 1 when
 * a named job has no status.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show one job, or a table of jobs (read from the compacted job status topic).", "",
                "Examples:", "  quanta status", "  quanta status --state RUNNING,QUEUED", "  quanta status job-1a2b --json"})
public final class StatusCommand extends ClientCommand implements Callable<Integer> {

    @Parameters(paramLabel = "JOB", arity = "0..1", description = "Job id; all jobs when absent.")
    String jobId;

    @Option(names = "--state", split = ",", paramLabel = "STATE",
            description = "Only jobs in these states: ${COMPLETION-CANDIDATES}.")
    Set<JobState> states = EnumSet.noneOf(JobState.class);

    @Option(names = "--tenant", paramLabel = "NAME", description = "Only jobs of this tenant.")
    String tenant;

    @Option(names = "--json", description = "JSON output.")
    boolean json;


    @Override
    public Integer call() {
        PrintWriter out = out();
        if (jobId != null) {
            Optional<JobStatus> status = statusApi().flatMap(api -> api.job(jobId)).or(() -> client().status(jobId));
            if (status.isEmpty()) {
                err().println("quanta status: job " + jobId
                        + " not found (no status yet: unknown job, or the scheduler has not seen it)");
                return ExitCodes.NOT_FOUND;
            }
            out.println(json ? AvroJson.print(AvroJson.tree(status.get())) : describe(status.get(), clock.instant()));
            out.flush();
            return ExitCodes.OK;
        }
        List<JobStatus> jobs = client().statuses().values().stream()
                .filter(s -> states.isEmpty() || states.contains(s.getState()))
                .filter(s -> tenant == null || tenant.equals(s.getTenant()))
                .sorted(Comparator.comparing((JobStatus s) -> s.getSubmittedAt() == null ? Instant.EPOCH
                        : s.getSubmittedAt()).thenComparing(JobStatus::getJobId))
                .toList();
        if (json) {
            out.println(AvroJson.print(AvroJson.array(jobs)));
        } else if (jobs.isEmpty()) {
            out.println("No jobs found.");
        } else {
            table(jobs, clock.instant()).print(out);
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The job table: one row per job. */
    static Table table(List<JobStatus> jobs, Instant now) {
        Table table = new Table("JOB", "TENANT", "STATE", "GPUS", "ATTEMPT", "QUEUE", "GPU-SECONDS", "AGE", "NODES",
                "REASON");
        for (JobStatus s : jobs) {
            table.row(s.getJobId(), s.getTenant(), s.getState(), s.getNumGpus(), s.getAttempt(), s.getQueueLevel(),
                    String.format("%.0f", s.getAttainedGpuSeconds()), Durations.age(s.getSubmittedAt(), now),
                    WatchCommand.placement(s), s.getReason());
        }
        return table;
    }

    /** Every field of one job, one per line, like {@code scontrol show job}. */
    static String describe(JobStatus s, Instant now) {
        StringBuilder b = new StringBuilder();
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        fields.put("Job", s.getJobId());
        fields.put("Tenant", s.getTenant());
        fields.put("Cell", s.getCellId());
        fields.put("State", s.getState());
        fields.put("Reason", s.getReason());
        fields.put("GPUs", s.getNumGpus());
        fields.put("Placement", WatchCommand.placement(s));
        fields.put("Attempt", s.getAttempt());
        fields.put("Queue level", s.getQueueLevel());
        fields.put("Attained service", String.format("%.1f GPU-seconds", s.getAttainedGpuSeconds()));
        fields.put("Preemptions", s.getPreemptions());
        fields.put("Migrations", s.getMigrations());
        fields.put("Submitted", when(s.getSubmittedAt(), now));
        fields.put("Queued since", when(s.getQueuedSince(), now));
        fields.put("First started", when(s.getFirstStartedAt(), now));
        fields.put("Last started", when(s.getLastStartedAt(), now));
        fields.put("Finished", when(s.getFinishedAt(), now));
        fields.put("Updated", when(s.getUpdatedAt(), now));
        fields.forEach((k, v) -> b.append(String.format("%-17s %s%n", k + ":", v == null || v.toString().isEmpty()
                ? "-" : v)));
        return b.toString().stripTrailing();
    }

    private static String when(Instant t, Instant now) {
        return t == null ? "-" : t + " (" + Durations.age(t, now) + " ago)";
    }
}
