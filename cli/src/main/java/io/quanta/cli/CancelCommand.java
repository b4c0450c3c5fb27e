package io.quanta.cli;

import io.quanta.cli.client.JobClient;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code quanta cancel JOB...}: produces a cancellation per job (a queued job becomes CANCELLED, a running one is
 * killed first). A job already ended, or (with tenants authenticated by topic) another tenant's job than the
 * {@code --tenant} it is sent as, is reported and skipped (exit 4); a job the scheduler has never reported is not
 * found (exit 5: nothing is produced, unless {@code --force}, for a submission that may still be on its way); an id
 * no job can have is bad input (exit 2).
 */
@Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancel jobs (queued or running).")
public final class CancelCommand extends ClientCommand implements Callable<Integer> {

    @Parameters(paramLabel = "JOB", arity = "1..*", description = "Job ids.")
    java.util.List<String> jobIds;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why (kept in the job's history).")
    String reason;

    @Option(names = {"-w", "--wait"}, description = "Wait until each job is CANCELLED (or ended otherwise).")
    boolean await;

    @Option(names = "--force", description = "Send the cancellation even when the job has no status yet.")
    boolean force;

    @Option(names = "--tenant", paramLabel = "TENANT",
            description = "Cancel as this tenant (with scheduler.tenant.topics; default: the job's tenant). "
                    + "Another tenant's job is refused (exit 4).")
    String tenant;


    @Override
    public Integer call() {
        jobIds.forEach(JobClient::requireValidId);
        JobClient client = client();
        int code = ExitCodes.OK;
        for (String jobId : jobIds) {
            Optional<JobStatus> now = client.status(jobId);
            if (now.isPresent() && WatchCommand.isTerminal(now.get())) {
                err().println("quanta cancel: job " + jobId + " already ended ("
                        + now.get().getState() + "); nothing to cancel");
                code = Math.max(code, ExitCodes.REFUSED);
                continue;
            }
            Optional<String> otherTenant = now.flatMap(s -> otherTenant(s, client.tenantTopics(), tenant));
            if (otherTenant.isPresent()) {
                err().println("quanta cancel: " + otherTenant.get());
                code = Math.max(code, ExitCodes.REFUSED);
                continue;
            }
            if (now.isEmpty() && !force) {
                err().println("quanta cancel: job " + jobId + " not found (the scheduler has not reported it; "
                        + "--force sends the cancellation anyway)");
                code = Math.max(code, ExitCodes.NOT_FOUND);
                continue;
            }
            client.cancel(jobId, Optional.ofNullable(reason), Optional.ofNullable(tenant)
                    .or(() -> now.map(JobStatus::getTenant)));
            out().println("cancel requested for " + jobId
                    + (now.isEmpty() ? " (no status yet)" : " (was " + now.get().getState() + ")"));
            out().flush();
            if (await) {
                Optional<JobStatus> last = client.follow(jobId, s -> { }, WatchCommand::isTerminal,
                        Duration.ofMinutes(10));
                String state = last.map(s -> s.getState().name()).orElse("unknown");
                out().println(jobId + " " + state);
                if (last.map(s -> s.getState() != JobState.CANCELLED).orElse(true)) {
                    code = Math.max(code, ExitCodes.FAILURE);
                }
            }
        }
        return code;
    }

    /**
     * Why a cancel sent as {@code tenant} would be refused because the job is another tenant's, or empty. Only with
     * tenants authenticated by topic, where the tenant a cancel is sent as is the one whose topic it is written to:
     * the scheduler refuses it anyway (it is the authority; this check spares the user a cancel that does nothing).
     */
    static Optional<String> otherTenant(JobStatus job, boolean tenantTopics, String tenant) {
        if (!tenantTopics || tenant == null || tenant.equals(job.getTenant())) {
            return Optional.empty();
        }
        return Optional.of("refused: job " + job.getJobId() + " belongs to tenant '" + job.getTenant()
                + "', and this cancel is sent as tenant '" + tenant + "' (tenants are authenticated by their "
                + "submissions topic; a tenant may cancel only its own jobs); nothing sent");
    }
}
