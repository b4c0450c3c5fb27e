package io.quanta.sim.engine;

import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.SchedulingDecision;
import java.util.List;

/**
 * What the scheduler wrote during one step, in output order per topic.
 *
 * @param commands records of {@code quanta.nodes.commands}
 * @param decisions records of {@code quanta.scheduler.decisions}
 * @param statuses records of {@code quanta.jobs.status}
 * @param deadLetters number of records written to {@code quanta.deadletter}
 */
public record SchedulerOutput(List<NodeCommand> commands, List<SchedulingDecision> decisions,
                              List<JobStatus> statuses, int deadLetters) {

    /** Nothing written. */
    public static final SchedulerOutput EMPTY = new SchedulerOutput(List.of(), List.of(), List.of(), 0);

    public SchedulerOutput {
        commands = List.copyOf(commands);
        decisions = List.copyOf(decisions);
        statuses = List.copyOf(statuses);
    }

    /** Whether nothing was written. */
    public boolean isEmpty() {
        return commands.isEmpty() && decisions.isEmpty() && statuses.isEmpty() && deadLetters == 0;
    }
}
