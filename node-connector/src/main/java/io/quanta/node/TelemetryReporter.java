package io.quanta.node;

import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.AttemptProgress;
import io.quanta.node.runner.JobRunner;
import io.quanta.node.telemetry.TelemetryAggregator;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.RunningAttempt;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a telemetry window: adds the runner's progress totals to what jobs reported themselves, publishes one
 * {@code JobTelemetry} per attempt and forgets the attempts that no longer run.
 */
final class TelemetryReporter {

    private static final Logger LOG = LoggerFactory.getLogger(TelemetryReporter.class);

    private final JobRunner runner;
    private final TelemetryAggregator aggregator;
    private final Supplier<List<RunningAttempt>> running;
    private final NodePublisher publisher;
    private final Clock clock;

    /** @param running the attempts running now */
    TelemetryReporter(JobRunner runner, TelemetryAggregator aggregator, Supplier<List<RunningAttempt>> running,
                      NodePublisher publisher, Clock clock) {
        this.runner = runner;
        this.aggregator = aggregator;
        this.running = running;
        this.publisher = publisher;
        this.clock = clock;
    }

    /** Publishes the window that ends now; a failure is logged, and the next window tries again. */
    void report() {
        try {
            for (AttemptProgress p : runner.progress()) {
                aggregator.recordTotal(p.attempt(), p.minibatchesDone(), p.gpuMemoryUsedMiB(), clock.instant());
            }
            for (JobTelemetry window : aggregator.flush(clock.instant())) {
                publisher.telemetry(window);
            }
            Set<AttemptId> active = running.get().stream()
                    .map(r -> new AttemptId(r.getJobId(), r.getAttempt())).collect(Collectors.toSet());
            aggregator.retainOnly(active);
        } catch (RuntimeException e) {
            LOG.error("telemetry window failed", e);
        }
    }
}
