package io.quanta.audit.log;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.JobCancelRequested;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeHeartbeat;

/** Short human-readable renderings of cell inputs, for reports and timelines. */
public final class InputText {

    private InputText() {
    }

    /** E.g. {@code JobEvent COMPLETED job j-3 attempt 1 on node n-2}. */
    public static String describe(CellInput input) {
        return switch (input.getInput()) {
            case JobSubmitted s -> "JobSubmitted job " + s.getJobId() + " (" + s.getNumGpus() + " GPUs, tenant "
                    + s.getTenant() + ", model " + s.getProfile().getModelName() + ")";
            case JobCancelRequested c -> "JobCancelRequested job " + c.getJobId()
                    + (c.getReason() == null ? "" : " (" + c.getReason() + ")");
            case NodeHeartbeat h -> "NodeHeartbeat node " + h.getNodeId() + " epoch " + h.getEpoch() + " ("
                    + h.getGpus().size() + " GPUs, " + h.getRunning().size() + " attempts running)";
            case JobTelemetry t -> "JobTelemetry job " + t.getJobId() + " attempt " + t.getAttempt() + " on node "
                    + t.getNodeId() + " (" + t.getMinibatchesDone() + " minibatches, "
                    + String.format("%.2f", t.getMinibatchesPerSecond()) + "/s)";
            case JobEvent e -> "JobEvent " + e.getType() + " job " + e.getJobId() + " attempt " + e.getAttempt()
                    + " on node " + e.getNodeId() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
            default -> input.getInput().getClass().getSimpleName();
        };
    }

    /** The job an input is about, or null for heartbeats. */
    public static String jobIdOf(CellInput input) {
        return switch (input.getInput()) {
            case JobSubmitted s -> s.getJobId();
            case JobCancelRequested c -> c.getJobId();
            case JobTelemetry t -> t.getJobId();
            case JobEvent e -> e.getJobId();
            default -> null;
        };
    }
}
