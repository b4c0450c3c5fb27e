package io.quanta.cli;

import io.quanta.cli.client.JobClient;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code quanta watch JOB}: prints the job's status, then one line per change, until it ends. Exit code 0 when it
 * FINISHED, 1 when it FAILED, was REJECTED or CANCELLED, or the timeout passed first, 5 when the job has no status
 * within {@code --not-found-after} (default 5 s: unknown job), 2 for an id no job can have.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = "Follow a job's state changes until it finishes (exit 0 FINISHED, 1 otherwise, 5 not found).")
public final class WatchCommand extends ClientCommand implements Callable<Integer> {

    private static final Set<JobState> TERMINAL = EnumSet.of(JobState.FINISHED, JobState.FAILED, JobState.REJECTED,
            JobState.CANCELLED);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    @Parameters(paramLabel = "JOB", description = "Job id.")
    String jobId;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "0",
            description = "Give up after this long (exit 1); 0 = wait forever (default).")
    long timeoutSeconds;

    @Option(names = "--not-found-after", paramLabel = "SECONDS", defaultValue = "5",
            description = "Give up (exit 5) when the job has no status after this long (default ${DEFAULT-VALUE}).")
    long notFoundSeconds;


    @Override
    public Integer call() {
        JobClient.requireValidId(jobId);
        JobClient client = client();
        Duration timeout = timeoutSeconds <= 0 ? Duration.ofDays(365) : Duration.ofSeconds(timeoutSeconds);
        PrintWriter out = out();
        Optional<JobStatus> first = client.follow(jobId, s -> { }, s -> true,
                Duration.ofSeconds(Math.max(0, notFoundSeconds)));
        if (first.isEmpty()) {
            err().println("quanta watch: job " + jobId + " not found (no status within " + notFoundSeconds
                    + " s: unknown job, or the scheduler has not seen it yet)");
            return ExitCodes.NOT_FOUND;
        }
        Optional<JobStatus> last = client.follow(jobId, s -> printChange(out, s), WatchCommand::isTerminal, timeout);
        if (!last.map(WatchCommand::isTerminal).orElse(false)) {
            err().println("quanta watch: job " + jobId + " still "
                    + last.map(s -> s.getState().name()).orElse("without status") + " after " + timeoutSeconds + " s");
        }
        return exitCode(last);
    }

    /** Whether the job reached a state it never leaves. */
    static boolean isTerminal(JobStatus status) {
        return TERMINAL.contains(status.getState());
    }

    /** 0 when the last status is FINISHED, else 1. */
    static int exitCode(Optional<JobStatus> last) {
        return last.filter(s -> s.getState() == JobState.FINISHED).isPresent() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** One line per status change: time, job, state, attempt, placement, reason. */
    static void printChange(PrintWriter out, JobStatus s) {
        StringBuilder line = new StringBuilder()
                .append(TIME.format(s.getUpdatedAt())).append("  ").append(s.getJobId()).append("  ")
                .append(String.format("%-10s", s.getState()))
                .append("  attempt ").append(s.getAttempt())
                .append("  queue ").append(s.getQueueLevel())
                .append(String.format("  %.0f GPU-s", s.getAttainedGpuSeconds()));
        if (!s.getPlacement().isEmpty()) {
            line.append("  on ").append(placement(s));
        }
        if (!s.getReason().isEmpty()) {
            line.append("  ").append(s.getReason());
        }
        out.println(line);
        out.flush();
    }

    /** {@code node-1[0,1],node-2[0,1]}. */
    static String placement(JobStatus s) {
        return s.getPlacement().stream().collect(Collectors.groupingBy(GpuRef::getNodeId, java.util.TreeMap::new,
                        Collectors.mapping(g -> Integer.toString(g.getIndex()), Collectors.joining(","))))
                .entrySet().stream().map(e -> e.getKey() + "[" + e.getValue() + "]").collect(Collectors.joining(","));
    }
}
