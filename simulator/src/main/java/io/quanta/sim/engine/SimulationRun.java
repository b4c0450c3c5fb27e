package io.quanta.sim.engine;

import io.quanta.schemas.DecisionType;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.metrics.RunStats;
import io.quanta.sim.metrics.Summary;
import io.quanta.sim.metrics.TimelineSample;
import java.util.List;
import java.util.Map;

/**
 * The result of one simulation: per-job outcomes in trace order, the timeline, counters and the summary.
 *
 * @param label what ran (normally the policy name)
 * @param outcomes every trace job's outcome
 * @param timeline samples of the cluster over virtual time
 * @param stats counters of the run
 * @param decisionCounts decision records by type
 */
public record SimulationRun(String label, List<JobOutcome> outcomes, List<TimelineSample> timeline, RunStats stats,
                            Map<DecisionType, Long> decisionCounts) {

    public SimulationRun {
        outcomes = List.copyOf(outcomes);
        timeline = List.copyOf(timeline);
        decisionCounts = Map.copyOf(decisionCounts);
    }

    /** The summary figures. */
    public Summary summary() {
        return Summary.of(outcomes, stats);
    }
}
