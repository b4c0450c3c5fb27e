package io.quanta.node.command;

import java.util.List;

/** Where the command handler keeps its {@link AttemptRecord}s: files in the work directory, or memory (simulator). */
public interface AttemptStore {

    /** Every record kept, in attempt order. */
    List<AttemptRecord> loadAll();

    /** Writes (or replaces) the record of an attempt durably before returning. */
    void save(AttemptRecord record);
}
