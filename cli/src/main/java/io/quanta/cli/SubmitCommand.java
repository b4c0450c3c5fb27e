package io.quanta.cli;

import io.quanta.cli.client.AvroJson;
import io.quanta.cli.client.JobClient;
import io.quanta.cli.client.JobSpec;
import io.quanta.cli.client.JobSpecFile;
import io.quanta.cli.client.ModelProfiles;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobSubmitted;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code quanta submit}: checks a job locally, produces it to the submissions topic (idempotent producer,
 * {@code acks=all}), prints its id on stdout, like {@code sbatch --parsable}, and waits until the scheduler accepted
 * or rejected it. Flags override the fields of {@code --file}. Exit codes: 0 accepted (or finished, with
 * {@code --wait}), 1 the job did not finish (with {@code --wait}), 2 bad input (nothing is produced), 4 rejected by
 * the scheduler or the id is already used, 69 the cluster or the scheduler did not answer.
 */
@Command(name = "submit", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Submit a training job; prints its id.", "",
                "Examples:",
                "  quanta submit --gpus 4 --tenant vision --model resnet50 -- python train.py --epochs 90",
                "  quanta submit --file job.yaml",
                "  quanta submit --gpus 2 --tenant nlp --model transformer --duration 3600   (simulated nodes)"})
public final class SubmitCommand extends ClientCommand implements Callable<Integer> {

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Job spec in YAML or JSON (see docs).")
    Path file;

    @Option(names = {"-g", "--gpus"}, paramLabel = "N", description = "GPUs held at once (gang).")
    Integer gpus;

    @Option(names = {"-t", "--tenant"}, paramLabel = "NAME", description = "Team that owns the job (quotas, routing).")
    String tenant;

    @Option(names = {"-m", "--model"}, paramLabel = "NAME",
            description = "Model name (default custom); profile defaults for: ${COMPLETION-CANDIDATES}.",
            completionCandidates = KnownModels.class)
    String model;

    @Option(names = "--id", paramLabel = "JOB", description = "Job id (default: generated job-XXXXXXXXXXXX).")
    String id;

    @Option(names = "--gpu-type", paramLabel = "MODEL", description = "Required GPU model, e.g. V100.")
    String gpuType;

    @Option(names = "--duration", paramLabel = "SECONDS",
            description = "Expected run time at full speed (simulated nodes need it; srtf-oracle uses it).")
    Long duration;

    @Option(names = "--skew", paramLabel = "0..1", description = "Tensor-size skew (overrides the model's).")
    Double skew;

    @Option(names = "--memory-mib", paramLabel = "MIB", description = "Per-GPU memory (overrides the model's).")
    Integer memoryMiB;

    @Option(names = {"-e", "--env"}, paramLabel = "NAME=VALUE", description = "Extra environment; repeatable.")
    Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--priority", paramLabel = "N", description = "Priority (default 0).")
    Integer priority;

    @Option(names = "--max-retries", paramLabel = "N", description = "Retries of a failed attempt (default 3).")
    Integer maxRetries;

    @Option(names = "--dry-run", description = "Check the job and print it as JSON; produce nothing.")
    boolean dryRun;

    @Option(names = {"-w", "--wait"}, description = "Then follow the job until it ends (exit 1 unless FINISHED).")
    boolean await;

    @Option(names = "--no-wait", description = "Do not wait for the scheduler to accept or reject the job.")
    boolean noWait;

    @Option(names = "--accept-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long to wait for the scheduler to accept or reject the job (default ${DEFAULT-VALUE}).")
    long acceptTimeoutSeconds;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The training command, after '--'.")
    List<String> command = new ArrayList<>();


    @Override
    public Integer call() {
        JobSpec job = spec();
        List<String> problems = job.problems();
        if (!problems.isEmpty()) {
            problems.forEach(p -> err().println("quanta submit: " + p));
            err().println("nothing submitted; see 'quanta submit --help'");
            return ExitCodes.USAGE;
        }
        warnAboutSecretsInTheClear(job);
        if (dryRun) {
            String jobId = job.jobId().orElse("(generated)");
            JobRequest request = job.toRequest(jobId, clock.instant());
            JobSubmitted submitted = (JobSubmitted) request.getRequest();
            // environment values are masked: the output ends up in terminals and CI logs
            submitted.setEnv(JobSpec.masked(submitted.getEnv()));
            out().println(AvroJson.print(AvroJson.tree(request)));
            return ExitCodes.OK;
        }
        JobClient client = client();
        if (job.jobId().isPresent()) {
            Optional<JobStatus> existing = client.status(job.jobId().get());
            if (existing.isPresent()) {
                err().println("quanta submit: job id " + job.jobId().get() + " is already used (that job is "
                        + existing.get().getState() + "); nothing submitted");
                return ExitCodes.REFUSED;
            }
        }
        JobClient.Submitted submitted = client.submit(job);
        String jobId = submitted.jobId();
        out().println(jobId);
        out().flush();
        if (noWait) {
            return ExitCodes.OK;
        }
        Optional<JobStatus> answer = client.answer(submitted, java.time.Duration.ofSeconds(acceptTimeoutSeconds));
        if (answer.isEmpty()) {
            err().println("quanta submit: job " + jobId + " is in Kafka, but the scheduler did not answer within "
                    + acceptTimeoutSeconds + " s (is it running? 'quanta watch " + jobId + "' follows it)");
            return ExitCodes.UNAVAILABLE;
        }
        if (answer.get().getState() == io.quanta.schemas.JobState.REJECTED) {
            err().println("quanta submit: job " + jobId + " rejected: " + answer.get().getReason());
            return ExitCodes.REFUSED;
        }
        if (!await) {
            return ExitCodes.OK;
        }
        Optional<JobStatus> last = client.follow(jobId, s -> WatchCommand.printChange(err(), s),
                WatchCommand::isTerminal, java.time.Duration.ofDays(365));
        return WatchCommand.exitCode(last);
    }

    /** A warning per variable that looks like a secret given in the clear (never its value); submits anyway. */
    private void warnAboutSecretsInTheClear(JobSpec job) {
        for (String name : job.secretsInTheClear()) {
            err().println("quanta submit: warning: environment variable " + name + " looks like a secret but its value "
                    + "is given in the clear: it travels on the submissions topic and stays in the scheduler's inbox "
                    + "and changelogs. Give a reference the node resolves instead, --env " + name + "="
                    + JobSpec.SECRET_REFERENCE + "NAME (file NAME in the node's node.job.secrets.dir); see "
                    + "docs/security.md");
        }
        err().flush();
    }

    JobSpec spec() {
        JobSpec base = file == null ? null : JobSpecFile.read(file);
        return new JobSpec(
                Optional.ofNullable(id).or(() -> base == null ? Optional.empty() : base.jobId()),
                tenant != null ? tenant : base != null ? base.tenant() : "default",
                gpus != null ? gpus : base != null ? base.gpus() : 1,
                Optional.ofNullable(gpuType).or(() -> base == null ? Optional.empty() : base.gpuType()),
                model != null ? model : base != null && base.model() != null ? base.model() : "custom",
                skew != null ? OptionalDouble.of(skew) : base != null ? base.skew() : OptionalDouble.empty(),
                Optional.ofNullable(memoryMiB).or(() -> base == null ? Optional.empty() : base.gpuMemoryMiB()),
                !command.isEmpty() ? command : base != null ? base.command() : List.of(),
                merged(base),
                duration != null ? OptionalLong.of(duration)
                        : base != null ? base.expectedDurationSeconds() : OptionalLong.empty(),
                priority != null ? priority : base != null ? base.priority() : 0,
                maxRetries != null ? maxRetries : base != null ? base.maxRetries() : 3);
    }

    private Map<String, String> merged(JobSpec base) {
        Map<String, String> all = new LinkedHashMap<>(base == null ? Map.of() : base.env());
        all.putAll(env);
        return all;
    }

    /** Completion candidates and help text for {@code --model}. */
    static final class KnownModels extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        KnownModels() {
            super(ModelProfiles.known());
        }
    }
}
