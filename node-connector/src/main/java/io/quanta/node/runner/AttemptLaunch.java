package io.quanta.node.runner;

import io.quanta.schemas.GpuRef;
import io.quanta.schemas.ModelProfile;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Everything a runner needs to start one attempt; taken from a START {@link NodeCommand}.
 *
 * @param id the attempt
 * @param gpuIndices the local GPUs it gets (the value of {@code CUDA_VISIBLE_DEVICES})
 * @param command argv of the training process (process backend)
 * @param env extra environment of the training process
 * @param checkpointRef where to resume from, if anywhere
 * @param profile the model profile (simulated backend, telemetry)
 * @param expectedDurationSeconds service time at full speed (simulated backend)
 * @param placement every GPU of the gang on every node (locality model); may be empty
 * @param sharingWith jobs packed on the same GPUs
 */
public record AttemptLaunch(AttemptId id, List<Integer> gpuIndices, List<String> command, Map<String, String> env,
                            Optional<String> checkpointRef, ModelProfile profile,
                            OptionalLong expectedDurationSeconds, List<GpuRef> placement, List<String> sharingWith) {

    /** Profile used when a command carries none. */
    public static final String UNKNOWN_MODEL = "unknown";

    public AttemptLaunch {
        Objects.requireNonNull(id, "id");
        gpuIndices = List.copyOf(gpuIndices);
        command = List.copyOf(command);
        env = Map.copyOf(env);
        Objects.requireNonNull(checkpointRef, "checkpointRef");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(expectedDurationSeconds, "expectedDurationSeconds");
        placement = List.copyOf(placement);
        sharingWith = List.copyOf(sharingWith);
    }

    /** The launch described by a START command. */
    public static AttemptLaunch from(NodeCommand command) {
        if (command.getType() != NodeCommandType.START) {
            throw new IllegalArgumentException("not a START command: " + command.getType() + " "
                    + command.getCommandId());
        }
        ModelProfile profile = command.getProfile() != null ? command.getProfile()
                : ModelProfile.newBuilder().setModelName(UNKNOWN_MODEL).build();
        Long expected = command.getExpectedDurationSeconds();
        return new AttemptLaunch(new AttemptId(command.getJobId(), command.getAttempt()), command.getGpuIndices(),
                command.getCommand(), command.getEnv(), Optional.ofNullable(command.getCheckpointRef()), profile,
                expected == null ? OptionalLong.empty() : OptionalLong.of(expected), command.getPlacement(),
                command.getSharingWith());
    }
}
