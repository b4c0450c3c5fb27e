package io.quanta.node;

import io.quanta.node.gpu.GpuDevice;
import io.quanta.node.gpu.GpuProbe;
import io.quanta.node.gpu.GpuProbeException;
import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds this node's heartbeats. When the probe fails, the GPUs it last listed are reported unhealthy with the probe's
 * error, so the scheduler stops placing work here without forgetting the node.
 */
public final class HeartbeatFactory {

    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatFactory.class);

    private final String nodeId;
    private final String cellId;
    private final String rack;
    private final long epoch;
    private final GpuProbe probe;
    private List<GpuDevice> lastGpus;

    /** A factory for a node whose GPUs were listed once already ({@code initialGpus}). */
    public HeartbeatFactory(String nodeId, String cellId, String rack, long epoch, GpuProbe probe,
                            List<GpuDevice> initialGpus) {
        this.nodeId = nodeId;
        this.cellId = cellId;
        this.rack = rack;
        this.epoch = epoch;
        this.probe = probe;
        this.lastGpus = List.copyOf(initialGpus);
    }

    /** The GPUs as last probed (or as first listed), failures included. */
    public synchronized List<GpuDevice> lastGpus() {
        return lastGpus;
    }

    /** A heartbeat saying what runs now, with freshly probed GPUs. */
    public synchronized NodeHeartbeat heartbeat(List<RunningAttempt> running, Instant now) {
        List<GpuDevice> gpus;
        try {
            gpus = probe.probe();
            lastGpus = gpus;
        } catch (GpuProbeException e) {
            LOG.warn("GPU probe failed; reporting every GPU unhealthy: {}", e.getMessage());
            gpus = lastGpus.stream().map(g -> g.withError("probe failed: " + e.getMessage())).toList();
            lastGpus = gpus;
        }
        List<GpuInfo> infos = gpus.stream().map(GpuDevice::toGpuInfo).toList();
        return NodeHeartbeat.newBuilder()
                .setNodeId(nodeId)
                .setCellId(cellId)
                .setRack(rack)
                .setEpoch(epoch)
                .setGpus(infos)
                .setRunning(running)
                .setSentAt(now)
                .build();
    }
}
