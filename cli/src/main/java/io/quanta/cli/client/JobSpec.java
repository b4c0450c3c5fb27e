package io.quanta.cli.client;

import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.ModelProfile;
import io.quanta.topics.JobIds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * A job as a user describes it (flags of {@code quanta submit} or a YAML/JSON file), before it is checked. {@link
 * #problems()} lists everything wrong with it at once, each naming the field and the bad value; {@link #toRequest}
 * builds the record to produce once there is none.
 *
 * @param jobId the id, empty = generated
 * @param tenant the team that owns the job
 * @param gpus GPUs held at once (gang)
 * @param gpuType required GPU model, empty = any
 * @param model model name (profile defaults come from {@link ModelProfiles})
 * @param skew tensor-size skew override, 0..1
 * @param gpuMemoryMiB per-GPU memory override
 * @param command argv of the training process
 * @param env extra environment
 * @param expectedDurationSeconds service time at full speed, if known (simulated nodes need it)
 * @param priority priority (higher first where a policy uses it)
 * @param maxRetries retries of a failed attempt
 */
public record JobSpec(Optional<String> jobId, String tenant, int gpus, Optional<String> gpuType, String model,
                      OptionalDouble skew, Optional<Integer> gpuMemoryMiB, List<String> command,
                      Map<String, String> env, OptionalLong expectedDurationSeconds, int priority, int maxRetries) {

    /** Job ids and tenants: letters, digits, '.', '_' and '-', starting with a letter or digit, at most 128. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Variable names that usually hold a secret. */
    private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(password|passwd|secret|token|key).*");
    /** An environment value the node resolves from its secrets directory (node.job.secrets.dir). */
    public static final String SECRET_REFERENCE = "secret:";
    /** What {@link #masked} shows instead of an environment value. */
    public static final String MASK = "***";

    public JobSpec {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(gpuType, "gpuType");
        Objects.requireNonNull(skew, "skew");
        Objects.requireNonNull(gpuMemoryMiB, "gpuMemoryMiB");
        Objects.requireNonNull(expectedDurationSeconds, "expectedDurationSeconds");
        command = List.copyOf(command);
        env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }

    /** Everything wrong with this spec, one message per problem; empty when it can be submitted. */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        jobId.flatMap(JobIds::problem).ifPresent(out::add);
        if (tenant == null || !NAME.matcher(tenant).matches()) {
            out.add("tenant '" + tenant + "' is not valid: use letters, digits, '.', '_' and '-'");
        }
        if (gpus < 1) {
            out.add("gpus must be at least 1, got " + gpus);
        }
        if (model == null || model.isBlank()) {
            out.add("model must not be empty (e.g. resnet50, vgg16, lstm-lm, transformer, or your own name)");
        }
        skew.ifPresent(s -> {
            if (!(s >= 0 && s <= 1)) {
                out.add("skew must be between 0 and 1, got " + s);
            }
        });
        gpuMemoryMiB.filter(m -> m < 0).ifPresent(m -> out.add("GPU memory must be >= 0 MiB, got " + m));
        if (command.isEmpty() && expectedDurationSeconds.isEmpty()) {
            out.add("nothing to run: give the command after '--' (e.g. -- python train.py), "
                    + "or --duration SECONDS for simulated nodes");
        }
        if (!command.isEmpty() && command.get(0).isBlank()) {
            out.add("the command's program name must not be blank");
        }
        expectedDurationSeconds.ifPresent(d -> {
            if (d < 1) {
                out.add("duration must be at least 1 second, got " + d);
            }
        });
        env.keySet().stream().filter(k -> !ENV_NAME.matcher(k).matches())
                .forEach(k -> out.add("environment variable name '" + k + "' is not valid"));
        if (maxRetries < 0) {
            out.add("max retries must be >= 0, got " + maxRetries);
        }
        return out;
    }

    /**
     * The environment variables whose name suggests a secret (password, secret, token, key) but whose value is given in
     * the clear instead of as a {@code secret:NAME} reference: such a value would travel on the submissions topic and
     * stay in the inbox and the scheduler's changelogs. Sorted; never the values.
     */
    public List<String> secretsInTheClear() {
        return env.entrySet().stream()
                .filter(e -> SECRET_NAME.matcher(e.getKey()).matches())
                .filter(e -> e.getValue() != null && !e.getValue().startsWith(SECRET_REFERENCE))
                .map(Map.Entry::getKey).sorted().toList();
    }

    /**
     * The environment as printed by the CLI: {@code secret:NAME} references as they are, every other value
     * {@link #MASK}ed.
     */
    public static Map<String, String> masked(Map<String, String> env) {
        Map<String, String> out = new java.util.TreeMap<>();
        env.forEach((name, value) -> out.put(name, value != null && value.startsWith(SECRET_REFERENCE) ? value : MASK));
        return out;
    }

    /** The submission record, with {@code id} as job id and {@code now} as submission time. */
    public JobRequest toRequest(String id, Instant now) {
        ModelProfile defaults = ModelProfiles.defaultsFor(model);
        ModelProfile profile = ModelProfile.newBuilder(defaults)
                .setTensorSizeSkew(skew.orElse(defaults.getTensorSizeSkew()))
                .setGpuMemoryMiB(gpuMemoryMiB.orElse(defaults.getGpuMemoryMiB()))
                .build();
        JobSubmitted submitted = JobSubmitted.newBuilder()
                .setJobId(id)
                .setTenant(tenant)
                .setNumGpus(gpus)
                .setGpuType(gpuType.orElse(null))
                .setCommand(command)
                .setEnv(env)
                .setProfile(profile)
                .setExpectedDurationSeconds(expectedDurationSeconds.isPresent()
                        ? expectedDurationSeconds.getAsLong() : null)
                .setPriority(priority)
                .setMaxRetries(maxRetries)
                .setSubmittedAt(now)
                .build();
        return JobRequest.newBuilder().setRequest(submitted).build();
    }
}
