package io.quanta.cli;

import io.quanta.cli.client.AvroJson;
import io.quanta.cli.client.Durations;
import io.quanta.cli.client.Table;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quanta queue}: the jobs waiting for GPUs, per cell and queue level, in the order they have waited, each with
 * the scheduler's reason (read from the compacted job status topic).
 */
@Command(name = "queue", mixinStandardHelpOptions = true,
        description = "Show waiting jobs per cell and queue level, with the reason each one waits.")
public final class QueueCommand extends ClientCommand implements Callable<Integer> {

    @Option(names = "--cell", paramLabel = "CELL", description = "Only this cell.")
    String cell;

    @Option(names = "--json", description = "JSON output.")
    boolean json;


    @Override
    public Integer call() {
        // every waiting job is held by its cell, so the status API's answer is complete
        java.util.Collection<JobStatus> all = statusApi().flatMap(api -> api.jobs(EnumSet.of(JobState.QUEUED)))
                .<java.util.Collection<JobStatus>>map(l -> l).orElseGet(() -> client().statuses().values());
        List<JobStatus> waiting = waiting(all, cell);
        PrintWriter out = out();
        if (json) {
            out.println(AvroJson.print(AvroJson.array(waiting)));
        } else if (waiting.isEmpty()) {
            out.println("No jobs waiting.");
        } else {
            out.print(render(waiting, clock.instant()));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** Queued jobs (optionally of one cell) ordered by cell, queue level, then how long they have waited. */
    static List<JobStatus> waiting(java.util.Collection<JobStatus> all, String onlyCell) {
        return all.stream().filter(s -> s.getState() == JobState.QUEUED)
                .filter(s -> onlyCell == null || onlyCell.equals(s.getCellId()))
                .sorted(Comparator.comparing((JobStatus s) -> String.valueOf(s.getCellId()))
                        .thenComparingInt(JobStatus::getQueueLevel)
                        .thenComparing(s -> s.getQueuedSince() == null ? Instant.EPOCH : s.getQueuedSince())
                        .thenComparing(JobStatus::getJobId))
                .toList();
    }

    /** A summary line per cell and level, then the table. */
    static String render(List<JobStatus> waiting, Instant now) {
        StringBuilder b = new StringBuilder();
        Map<String, Map<Integer, List<JobStatus>>> byCell = waiting.stream().collect(Collectors.groupingBy(
                s -> String.valueOf(s.getCellId()), TreeMap::new,
                Collectors.groupingBy(JobStatus::getQueueLevel, TreeMap::new, Collectors.toList())));
        byCell.forEach((cellId, levels) -> {
            b.append("cell ").append(cellId).append(": ");
            b.append(levels.entrySet().stream().map(e -> "level " + e.getKey() + " " + e.getValue().size()
                    + " jobs / " + e.getValue().stream().mapToInt(JobStatus::getNumGpus).sum() + " GPUs")
                    .collect(Collectors.joining(", "))).append('\n');
        });
        b.append('\n');
        Table table = new Table("CELL", "LEVEL", "#", "JOB", "TENANT", "GPUS", "WAITING", "ATTEMPT", "REASON");
        byCell.forEach((cellId, levels) -> levels.forEach((level, jobs) -> {
            int position = 1;
            for (JobStatus s : jobs) {
                Instant since = s.getQueuedSince() != null ? s.getQueuedSince() : s.getSubmittedAt();
                table.row(cellId, level, position++, s.getJobId(), s.getTenant(), s.getNumGpus(),
                        Durations.age(since, now), s.getAttempt(), s.getReason());
            }
        }));
        return b.append(table.render()).toString();
    }
}
