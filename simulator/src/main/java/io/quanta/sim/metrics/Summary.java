package io.quanta.sim.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The figures of one simulation run. Times in seconds; JCT percentiles by nearest rank over finished jobs;
 * utilisations are fractions of {@code totalGpus x makespan}.
 *
 * @param jobs jobs in the trace
 * @param finished jobs that finished
 * @param unfinished jobs that did not (never ran, still queued, rejected or failed)
 * @param avgJct mean JCT
 * @param medianJct median JCT
 * @param p95Jct 95th percentile JCT
 * @param p99Jct 99th percentile JCT
 * @param maxJct largest JCT
 * @param avgQueueingDelay mean of first start minus submit over jobs that started
 * @param split where the finished jobs' time beyond their duration went ({@link TimeSplit}); empty when a finished
 *     job's running time was not measured (a live cluster's workload) or none finished
 * @param makespan last finish minus first submit
 * @param utilisationAllocated GPU-seconds held by attempts over GPU-seconds available during the makespan
 * @param utilisationUseful service of finished jobs (GPUs x duration at full speed) over GPU-seconds available
 * @param preemptionsPerJob SUSPEND decisions per job
 * @param migrationsPerJob MIGRATE decisions per job
 * @param decisions decision records
 * @param decisionsPerWallSecond decisions per second of wall time
 * @param simulatedSecondsPerWallSecond virtual seconds simulated per wall second
 * @param wallSeconds wall time of the run
 */
public record Summary(int jobs, int finished, int unfinished, double avgJct, double medianJct, double p95Jct,
                      double p99Jct, double maxJct, double avgQueueingDelay, Optional<TimeSplit> split,
                      double makespan,
                      double utilisationAllocated, double utilisationUseful, double preemptionsPerJob,
                      double migrationsPerJob, long decisions, double decisionsPerWallSecond,
                      double simulatedSecondsPerWallSecond, double wallSeconds) {

    /** Computes the summary of a run. */
    public static Summary of(List<JobOutcome> outcomes, RunStats stats) {
        double[] jct = outcomes.stream().filter(JobOutcome::finished)
                .mapToDouble(o -> o.jctSeconds().getAsDouble()).toArray();
        double[] delay = outcomes.stream().filter(o -> o.firstStartSeconds().isPresent())
                .mapToDouble(o -> o.queueingDelaySeconds().getAsDouble()).toArray();
        double firstSubmit = outcomes.stream().mapToDouble(JobOutcome::submitSeconds).min().orElse(0);
        double lastFinish = outcomes.stream().filter(JobOutcome::finished)
                .mapToDouble(o -> o.finishSeconds().getAsDouble()).max().orElse(firstSubmit);
        double makespan = lastFinish - firstSubmit;
        double available = stats.totalGpus() * makespan;
        double useful = outcomes.stream().filter(JobOutcome::finished)
                .mapToDouble(o -> (double) o.numGpus() * o.durationSeconds()).sum();
        int n = outcomes.size();
        double wall = stats.wallSeconds();
        return new Summary(n, jct.length, n - jct.length, Percentiles.mean(jct),
                jct.length == 0 ? Double.NaN : Percentiles.nearestRank(jct, 50),
                jct.length == 0 ? Double.NaN : Percentiles.nearestRank(jct, 95),
                jct.length == 0 ? Double.NaN : Percentiles.nearestRank(jct, 99),
                java.util.Arrays.stream(jct).max().orElse(Double.NaN), Percentiles.mean(delay),
                TimeSplit.of(outcomes), makespan,
                available > 0 ? stats.allocatedGpuSeconds() / available : Double.NaN,
                available > 0 ? useful / available : Double.NaN,
                n == 0 ? 0 : outcomes.stream().mapToInt(JobOutcome::preemptions).sum() / (double) n,
                n == 0 ? 0 : outcomes.stream().mapToInt(JobOutcome::migrations).sum() / (double) n,
                stats.decisions(), wall > 0 ? stats.decisions() / wall : Double.NaN,
                wall > 0 ? stats.simulatedSeconds() / wall : Double.NaN, wall);
    }

    /** The finished jobs' average time without GPUs after their first start; NaN where the split is empty. */
    public double avgWaitingAfterStart() {
        return split.map(TimeSplit::waitingAfterStart).orElse(Double.NaN);
    }

    /** The finished jobs' average running time beyond their duration; NaN where the split is empty. */
    public double avgRunningBeyond() {
        return split.map(TimeSplit::runningBeyond).orElse(Double.NaN);
    }

    /** The figures by name, in a stable order (for JSON and tables). */
    public Map<String, Number> asMap() {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("jobs", jobs);
        m.put("finished", finished);
        m.put("unfinished", unfinished);
        m.put("avg_jct_s", avgJct);
        m.put("median_jct_s", medianJct);
        m.put("p95_jct_s", p95Jct);
        m.put("p99_jct_s", p99Jct);
        m.put("max_jct_s", maxJct);
        m.put("avg_queueing_delay_s", avgQueueingDelay);
        m.put("avg_waiting_after_start_s", avgWaitingAfterStart());
        m.put("avg_running_beyond_s", avgRunningBeyond());
        m.put("makespan_s", makespan);
        m.put("gpu_utilisation_allocated", utilisationAllocated);
        m.put("gpu_utilisation_useful", utilisationUseful);
        m.put("preemptions_per_job", preemptionsPerJob);
        m.put("migrations_per_job", migrationsPerJob);
        m.put("decisions", decisions);
        m.put("decisions_per_wall_s", decisionsPerWallSecond);
        m.put("simulated_s_per_wall_s", simulatedSecondsPerWallSecond);
        m.put("wall_s", wallSeconds);
        return m;
    }
}
