package io.quanta.streams.status;

import io.quanta.core.model.GpuId;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobStatus;
import io.quanta.streams.cell.NodeRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** The JSON documents of the status API (see docs/status-api.md). */
public final class StatusViews {

    private StatusViews() {
    }

    /** {@code GET /jobs/{id}}: a job's state, queue, service, placement and why it waits. */
    public record JobView(String jobId, String cellId, String tenant, String state, int attempt, int numGpus,
                          int queueLevel, double attainedGpuSeconds, List<String> placement, String reason,
                          String waitingBecause, String submittedAt, String queuedSince, String firstStartedAt,
                          String lastStartedAt, String finishedAt, int preemptions, int migrations, String asOf) {

        static JobView of(JobStatus s, String waitingBecause) {
            return new JobView(s.getJobId(), s.getCellId(), s.getTenant(), s.getState().name(), s.getAttempt(),
                    s.getNumGpus(), s.getQueueLevel(), s.getAttainedGpuSeconds(),
                    s.getPlacement().stream().map(StatusViews::gpu).toList(), s.getReason(), waitingBecause,
                    text(s.getSubmittedAt()), text(s.getQueuedSince()), text(s.getFirstStartedAt()),
                    text(s.getLastStartedAt()), text(s.getFinishedAt()), s.getPreemptions(), s.getMigrations(),
                    text(s.getUpdatedAt()));
        }
    }

    /** One GPU in {@code GET /nodes}. */
    public record GpuView(int index, String model, long memoryMiB, boolean healthy, String error, List<String> jobs) {
    }

    /** {@code GET /nodes}: one node of a cell. */
    public record NodeView(String nodeId, String cellId, String rack, boolean alive, long epoch, String lastSeen,
                           List<GpuView> gpus) {

        static NodeView of(NodeRecord node, Map<GpuId, List<String>> occupancy) {
            List<GpuView> gpus = node.gpus().stream().map(g -> new GpuView(g.index(), g.model(), g.memoryMiB(),
                    g.healthy(), g.error(), occupancy.getOrDefault(new GpuId(node.nodeId(), g.index()), List.of())))
                    .toList();
            return new NodeView(node.nodeId(), node.cellId(), node.rack(), node.alive(), node.epoch(),
                    text(node.lastSeenMs()), gpus);
        }
    }

    /** {@code GET /cells/{id}/summary}. */
    public record CellSummary(String cellId, String streamTime, int gpusTotal, int gpusUsed, int gpusFree,
                              int gpusUnavailable, int nodesAlive, int nodesLost, long queued, long starting,
                              long running, long suspending, SortedMap<Integer, Integer> queueLengths,
                              long decisions, long passes, String nextWakeUp, long droppedTelemetry) {
    }

    /** An error document. */
    public record Problem(int status, String error) {
    }

    static String gpu(GpuRef ref) {
        return ref.getNodeId() + "/" + ref.getIndex();
    }

    static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    static String text(long epochMs) {
        return epochMs < 0 ? null : Instant.ofEpochMilli(epochMs).toString();
    }
}
