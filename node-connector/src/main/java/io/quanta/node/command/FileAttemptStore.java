package io.quanta.node.command;

import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.Json;
import io.quanta.node.runner.NodeWorkDir;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps each attempt record as {@code attempt.json} in the attempt's directory (see {@link NodeWorkDir}), written
 * atomically and fsynced; a record that cannot be read is moved aside with a warning.
 */
public final class FileAttemptStore implements AttemptStore {

    private final NodeWorkDir workDir;

    public FileAttemptStore(NodeWorkDir workDir) {
        this.workDir = workDir;
    }

    @Override
    public List<AttemptRecord> loadAll() {
        List<AttemptRecord> records = new ArrayList<>();
        for (Path file : workDir.attemptStateFiles()) {
            try {
                Json.read(file, AttemptRecord.class).ifPresent(records::add);
            } catch (RuntimeException e) {
                // a damaged record costs that attempt (the scheduler learns it is gone from the heartbeats), never
                // the connector's start
                workDir.moveAside(file, e);
            }
        }
        records.sort(Comparator.comparing(AttemptRecord::id));
        return records;
    }

    @Override
    public void save(AttemptRecord record) {
        Path dir = workDir.attemptDir(new AttemptId(record.jobId(), record.attempt()));
        Json.write(dir.resolve(NodeWorkDir.ATTEMPT_STATE), record);
    }

    @Override
    public void delete(AttemptId id) {
        NodeWorkDir.deleteRecursively(workDir.attemptDir(id));
    }

    @Override
    public void deleteJob(String jobId) {
        NodeWorkDir.deleteRecursively(workDir.jobDir(jobId));
    }
}
