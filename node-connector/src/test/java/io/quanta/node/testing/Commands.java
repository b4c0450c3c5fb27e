package io.quanta.node.testing;

import io.quanta.schemas.ModelProfile;
import io.quanta.topics.serde.AvroTrust;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Fixture builders for node commands. */
public final class Commands {

    static {
        AvroTrust.trustQuantaSchemas();
    }

    private Commands() {
    }

    public static ModelProfile profile(String model, double skew, int memoryMiB) {
        return ModelProfile.newBuilder().setModelName(model).setTensorSizeSkew(skew).setGpuMemoryMiB(memoryMiB).build();
    }

    /** A START with a command line (process backend). */
    public static NodeCommand.Builder start(String node, long epoch, String job, int attempt, List<String> argv) {
        return base(node, epoch, job, attempt, NodeCommandType.START).setCommand(argv).setGpuIndices(List.of(0));
    }

    /** A START for the simulated backend. */
    public static NodeCommand.Builder simStart(String node, long epoch, String job, int attempt, long seconds) {
        return base(node, epoch, job, attempt, NodeCommandType.START)
                .setGpuIndices(List.of(0))
                .setProfile(profile("resnet50", 0.1, 0))
                .setExpectedDurationSeconds(seconds);
    }

    public static NodeCommand suspend(String node, long epoch, String job, int attempt) {
        return base(node, epoch, job, attempt, NodeCommandType.SUSPEND).build();
    }

    public static NodeCommand kill(String node, long epoch, String job, int attempt) {
        return base(node, epoch, job, attempt, NodeCommandType.KILL).build();
    }

    public static NodeCommand.Builder base(String node, long epoch, String job, int attempt, NodeCommandType type) {
        return NodeCommand.newBuilder()
                .setCommandId(type.name().toLowerCase() + "-" + job + "-" + attempt + "-" + epoch)
                .setNodeId(node)
                .setEpoch(epoch)
                .setJobId(job)
                .setAttempt(attempt)
                .setType(type)
                .setEnv(Map.of())
                .setIssuedAt(Instant.parse("2026-01-01T00:00:00Z"));
    }
}
