package io.quanta.core.testing;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.model.ModelProfile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** Fluent builder of a {@link Job} with short, readable names for test tables. */
public final class JobFixture {
    private final Job.Builder b;
    private final List<GpuId> placement = new ArrayList<>();

    JobFixture(String id, long seq) {
        this.b = Job.builder(id).arrivalSeq(seq);
    }

    public JobFixture gpus(int n) { b.numGpus(n); return this; }
    public JobFixture tenant(String t) { b.tenant(t); return this; }
    public JobFixture gpuType(String t) { b.gpuType(Optional.of(t)); return this; }
    public JobFixture seq(long s) { b.arrivalSeq(s); return this; }
    public JobFixture submittedAt(long epochSecond) { b.submittedAt(Instant.ofEpochSecond(epochSecond)); return this; }
    public JobFixture attained(double gpuSeconds) { b.attainedGpuSeconds(gpuSeconds); return this; }
    public JobFixture executed(double seconds) { b.executedSeconds(seconds); return this; }
    public JobFixture waiting(double seconds) { b.waitingSeconds(seconds); return this; }
    public JobFixture level(int l) { b.queueLevel(l); return this; }
    public JobFixture preemptions(int n) { b.preemptions(n); return this; }
    public JobFixture attempt(int a) { b.attempt(a); return this; }
    public JobFixture state(JobState s) { b.state(s); return this; }
    public JobFixture queued() { b.state(JobState.QUEUED); return this; }
    public JobFixture suspending() { b.state(JobState.SUSPENDING); return this; }
    public JobFixture starting() { b.state(JobState.STARTING); return this; }
    public JobFixture duration(double seconds) { b.expectedDurationSeconds(OptionalDouble.of(seconds)); return this; }
    public JobFixture throughput(double v) { b.throughput(v); return this; }
    public JobFixture baseline(double v) { b.baselineThroughput(v); return this; }
    public JobFixture placementChangedAt(long epochSecond) {
        b.placementChangedAt(Optional.of(Instant.ofEpochSecond(epochSecond)));
        return this;
    }
    public JobFixture previousPlacement(GpuId... gpus) { b.previousPlacement(Arrays.asList(gpus)); return this; }
    public JobFixture reserved(GpuId... gpus) { b.reservedGpus(Arrays.asList(gpus)); return this; }
    public JobFixture sharingWith(String... jobIds) { b.sharingWith(Arrays.asList(jobIds)); return this; }
    public JobFixture profile(ModelProfile p) { b.profile(p); return this; }
    public JobFixture model(String name, double skew, long memoryMiB, double minibatchMillis) {
        b.profile(new ModelProfile(name, skew, memoryMiB, minibatchMillis));
        return this;
    }
    public JobFixture skew(double skew) { b.profile(new ModelProfile("m", skew, 0, Double.NaN)); return this; }

    /** RUNNING on GPUs {@code indices} of node {@code nodeId} (call again to span nodes). */
    public JobFixture runningOn(String nodeId, int... indices) {
        b.state(JobState.RUNNING);
        for (int i : indices) {
            placement.add(new GpuId(nodeId, i));
        }
        b.numGpus(placement.size());
        return this;
    }

    /** Like {@link #runningOn} but keeps the current state (e.g. after {@link #suspending()}). */
    public JobFixture on(String nodeId, int... indices) {
        for (int i : indices) {
            placement.add(new GpuId(nodeId, i));
        }
        b.numGpus(placement.size());
        return this;
    }

    public Job build() {
        return b.placement(placement).build();
    }
}
