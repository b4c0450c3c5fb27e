package io.quanta.node.command;

import io.quanta.node.runner.AttemptId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Keeps attempt records in memory only: for the simulator and tests, where nothing survives a restart. */
public final class InMemoryAttemptStore implements AttemptStore {

    private final Map<AttemptId, AttemptRecord> records = new TreeMap<>();

    @Override
    public synchronized List<AttemptRecord> loadAll() {
        return new ArrayList<>(records.values());
    }

    @Override
    public synchronized void save(AttemptRecord record) {
        records.put(record.id(), record);
    }

    @Override
    public synchronized void delete(AttemptId id) {
        records.remove(id);
    }

    @Override
    public void deleteJob(String jobId) {
        // nothing is kept per job in memory
    }
}
