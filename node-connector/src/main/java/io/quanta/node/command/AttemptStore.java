package io.quanta.node.command;

import io.quanta.node.runner.AttemptId;
import java.util.List;

/** Where the command handler keeps its {@link AttemptRecord}s: files in the work directory, or memory (simulator). */
public interface AttemptStore {

    /** Every record kept, in attempt order. */
    List<AttemptRecord> loadAll();

    /** Writes (or replaces) the record of an attempt durably before returning. */
    void save(AttemptRecord record);

    /** Forgets an ended attempt: its record and everything kept for it (logs, working directory). */
    void delete(AttemptId id);

    /** Forgets what is kept for a job beyond its attempts (its default checkpoint directory). */
    void deleteJob(String jobId);
}
