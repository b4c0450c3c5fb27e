package io.quanta.streams.router;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.JobStatus;
import java.util.List;

/**
 * What the router does with one valid-or-not input: the cell inputs to append to the inbox (usually one; two when a
 * node moves between cells), a status to publish (REJECTED submissions), and a dead-letter reason when the input
 * cannot be used or is a recorded no-op.
 *
 * @param toCells          cell inputs, in order
 * @param status           a job status to publish, or null
 * @param deadLetterReason why the input goes to the dead letters, or null
 */
public record RouteOutcome(List<CellInput> toCells, JobStatus status, String deadLetterReason) {

    public RouteOutcome {
        toCells = List.copyOf(toCells);
    }

    /** Append to one or more cells' inboxes. */
    public static RouteOutcome to(CellInput... inputs) {
        return new RouteOutcome(List.of(inputs), null, null);
    }

    /** Refuse the input: dead letter only. */
    public static RouteOutcome deadLetter(String reason) {
        return new RouteOutcome(List.of(), null, reason);
    }

    /** Reject a submission: REJECTED status and dead letter. */
    public static RouteOutcome rejected(JobStatus status, String reason) {
        return new RouteOutcome(List.of(), status, reason);
    }
}
