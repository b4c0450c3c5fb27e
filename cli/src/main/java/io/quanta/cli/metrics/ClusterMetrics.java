package io.quanta.cli.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quanta.cli.observe.ClusterView;
import io.quanta.cli.observe.RecordSink;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.SchedulingDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Scheduling metrics computed from the scheduler's output topics (a {@link RecordSink} of a
 * {@link io.quanta.cli.observe.ClusterObserver}), so they describe the whole cluster the same way on every instance
 * (aggregate instances with {@code max}, not {@code sum}):
 * <ul>
 *   <li>{@code quanta_scheduler_decisions_total{type}}: decisions written since start, by type;</li>
 *   <li>{@code quanta_jobs{state}}, {@code quanta_queue_length{level}}: jobs per state and queued jobs per level;</li>
 *   <li>{@code quanta_gpus{state=busy|free|unhealthy}}, {@code quanta_nodes}: from the latest heartbeats;</li>
 *   <li>{@code quanta_job_completion_seconds}, {@code quanta_job_queueing_seconds}: histograms of JCT (finish minus
 *       submit) and queueing delay (first start minus submit) of jobs that finish or start after start-up;</li>
 *   <li>{@code quanta_deadletters_total}: dead-letter records written since start.</li>
 * </ul>
 */
public final class ClusterMetrics implements RecordSink {

    private final ClusterView view;
    private final Map<DecisionType, Counter> decisions = new EnumMap<>(DecisionType.class);
    private final Counter deadLetters;
    private final DistributionSummary completion;
    private final DistributionSummary queueing;
    private final Set<String> started = new HashSet<>();
    private volatile boolean live;

    /**
     * Registers the meters; gauges read {@code view}, which must be fed by the same observer.
     *
     * @param view the cluster view the gauges read
     */
    public ClusterMetrics(MeterRegistry registry, ClusterView view) {
        this.view = view;
        for (DecisionType type : DecisionType.values()) {
            decisions.put(type, Counter.builder("quanta.scheduler.decisions").tag("type", type.name())
                    .description("Scheduling decisions written to the audit log").register(registry));
        }
        deadLetters = Counter.builder("quanta.deadletters").description("Inputs sent to the dead-letter topic")
                .register(registry);
        completion = DistributionSummary.builder("quanta.job.completion").baseUnit("seconds")
                .description("Job completion time: finish minus submission").publishPercentileHistogram()
                .minimumExpectedValue(1.0).maximumExpectedValue(30.0 * 86_400).register(registry);
        queueing = DistributionSummary.builder("quanta.job.queueing").baseUnit("seconds")
                .description("Queueing delay: first start minus submission").publishPercentileHistogram()
                .minimumExpectedValue(0.01).maximumExpectedValue(30.0 * 86_400).register(registry);
        for (JobState state : JobState.values()) {
            Gauge.builder("quanta.jobs", view, v -> v.snapshot().jobs(state)).tag("state", state.name())
                    .description("Jobs by state (latest status)").register(registry);
        }
        Gauge.builder("quanta.gpus", view, v -> v.snapshot().busyGpus()).tag("state", "busy")
                .description("GPUs by state, from the latest heartbeats").register(registry);
        Gauge.builder("quanta.gpus", view, v -> v.snapshot().freeGpus()).tag("state", "free").register(registry);
        Gauge.builder("quanta.gpus", view, v -> v.snapshot().unhealthyGpus()).tag("state", "unhealthy")
                .register(registry);
        Gauge.builder("quanta.nodes", view, v -> v.snapshot().nodes()).description("Nodes heard from")
                .register(registry);
    }

    /** Registers a queue-length gauge per level up to {@code levels - 1} (levels appear as policies use them). */
    public ClusterMetrics withQueueLevels(MeterRegistry registry, int levels) {
        for (int level = 0; level < levels; level++) {
            int l = level;
            Gauge.builder("quanta.queue.length", view, v -> v.snapshot().queuedByLevel().getOrDefault(l, 0))
                    .tag("level", Integer.toString(level)).description("Queued jobs per queue level")
                    .register(registry);
        }
        return this;
    }

    @Override
    public void decision(SchedulingDecision decision) {
        decisions.get(decision.getType()).increment();
    }

    @Override
    public void deadLetter(DeadLetter letter) {
        deadLetters.increment();
    }

    @Override
    public void status(JobStatus s) {
        boolean firstStart = s.getFirstStartedAt() != null && started.add(s.getJobId());
        if (live && firstStart && s.getSubmittedAt() != null) {
            queueing.record(seconds(s.getSubmittedAt(), s.getFirstStartedAt()));
        }
        if (s.getState() == JobState.FINISHED && s.getFinishedAt() != null && s.getSubmittedAt() != null && live) {
            completion.record(seconds(s.getSubmittedAt(), s.getFinishedAt()));
        }
        if (s.getState() == JobState.FINISHED || s.getState() == JobState.FAILED
                || s.getState() == JobState.CANCELLED || s.getState() == JobState.REJECTED) {
            started.remove(s.getJobId());
        }
    }

    @Override
    public void caughtUp() {
        live = true;
    }

    private static double seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis() / 1000.0);
    }
}
