package io.quanta.streams.testing;

import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.JobCancelRequested;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.ModelProfile;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Fluent builders of the input records the tests feed to the topology. */
public final class Records {

    private Records() {
    }

    public static Instant at(long seconds) {
        return Instant.ofEpochSecond(1_700_000_000L + seconds);
    }

    public static JobSubmitted.Builder job(String id, int gpus) {
        return JobSubmitted.newBuilder().setJobId(id).setTenant("team").setNumGpus(gpus)
                .setProfile(ModelProfile.newBuilder().setModelName("resnet50").build())
                .setCommand(List.of("python", "train.py")).setMaxRetries(3).setSubmittedAt(at(0));
    }

    public static JobRequest request(JobSubmitted job) {
        return new JobRequest(job);
    }

    public static JobRequest cancel(String jobId) {
        return new JobRequest(JobCancelRequested.newBuilder().setJobId(jobId).setReason("user").setRequestedAt(at(0))
                .build());
    }

    /** A heartbeat of a node with {@code gpus} healthy V100s. */
    public static NodeHeartbeat.Builder node(String id, String cell, int gpus, long epoch, Instant sentAt) {
        List<GpuInfo> infos = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            infos.add(GpuInfo.newBuilder().setIndex(i).setUuid(id + "-gpu" + i).setModel("V100")
                    .setMemoryTotalMiB(16_384).setMemoryUsedMiB(0).setUtilizationPercent(0).setHealthy(true).build());
        }
        return NodeHeartbeat.newBuilder().setNodeId(id).setCellId(cell).setRack("r1").setEpoch(epoch).setGpus(infos)
                .setRunning(List.of()).setSentAt(sentAt);
    }

    public static RunningAttempt running(String jobId, int attempt, Integer... gpus) {
        return new RunningAttempt(jobId, attempt, List.of(gpus));
    }

    public static JobEvent event(String jobId, int attempt, String nodeId, JobEventType type, Instant at) {
        return JobEvent.newBuilder().setJobId(jobId).setAttempt(attempt).setNodeId(nodeId).setType(type).setAt(at)
                .build();
    }

    public static JobTelemetry telemetry(String jobId, int attempt, String nodeId, double rate, Instant at) {
        return JobTelemetry.newBuilder().setJobId(jobId).setAttempt(attempt).setNodeId(nodeId)
                .setMinibatchesDone(100).setMinibatchesPerSecond(rate).setWindowMillis(10_000).setReportedAt(at)
                .build();
    }
}
