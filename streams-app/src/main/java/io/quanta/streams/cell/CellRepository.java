package io.quanta.streams.cell;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.streams.store.CellScopedStore;
import io.quanta.streams.store.CellValueStore;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cell scheduler's persistent state behind typed facades: active jobs, finished jobs, nodes, assignments,
 * learned memory (service distribution, interference) and cell meta, all keyed by cell. Loads every cell of the task
 * into memory at start ({@link #loadAll}) and writes back exactly what a step changed ({@link #flush}); the stores
 * are the truth after a restart.
 */
public final class CellRepository {

    private static final long HOUR_MS = Duration.ofHours(1).toMillis();

    private final CellScopedStore<JobRecord> jobs;
    private final CellScopedStore<JobRecord> finished;
    private final CellScopedStore<String> finishedIndex;
    private final CellScopedStore<NodeRecord> nodes;
    private final CellScopedStore<AssignmentRecord> assignments;
    private final CellValueStore<CellMeta> meta;
    private final CellValueStore<ServiceDistribution> distributions;
    private final CellValueStore<InterferenceMemory> interference;
    private final PolicyConfig policy;

    public CellRepository(CellScopedStore<JobRecord> jobs, CellScopedStore<JobRecord> finished,
                          CellScopedStore<String> finishedIndex, CellScopedStore<NodeRecord> nodes,
                          CellScopedStore<AssignmentRecord> assignments,
                          CellValueStore<CellMeta> meta, CellValueStore<ServiceDistribution> distributions,
                          CellValueStore<InterferenceMemory> interference, PolicyConfig policy) {
        this.jobs = jobs;
        this.finished = finished;
        this.finishedIndex = finishedIndex;
        this.nodes = nodes;
        this.assignments = assignments;
        this.meta = meta;
        this.distributions = distributions;
        this.interference = interference;
        this.policy = policy;
    }

    /** Every cell stored in this task's stores, rebuilt in memory. */
    public Map<String, CellState> loadAll() {
        Map<String, CellState> cells = new TreeMap<>();
        meta.forEach((cellId, m) -> cells.put(cellId, newState(cellId, m)));
        distributions.forEach((cellId, d) -> state(cells, cellId).loadMemory(d, null));
        interference.forEach((cellId, m) -> state(cells, cellId).loadMemory(null, m));
        nodes.forEach((cellId, n) -> state(cells, cellId).nodes.put(n.nodeId(), n));
        jobs.forEach((cellId, j) -> state(cells, cellId).loadJob(j));
        assignments.forEach((cellId, a) -> state(cells, cellId).loadAssignment(a));
        cells.values().forEach(CellState::clearChanges);
        return cells;
    }

    /**
     * One cell as the stores hold it, i.e. as it was after the last record that completed; a new cell when the
     * stores know none. The processor reloads a cell this way when a record failed half-way through its step.
     */
    public CellState load(String cellId) {
        CellMeta stored = meta.get(cellId);
        if (stored == null) {
            return newCell(cellId);
        }
        CellState cell = newState(cellId, stored);
        cell.loadMemory(distributions.get(cellId), interference.get(cellId));
        nodes.scan(cellId).forEach(n -> cell.nodes.put(n.nodeId(), n));
        jobs.scan(cellId).forEach(cell::loadJob);
        assignments.scan(cellId).forEach(cell::loadAssignment);
        cell.clearChanges();
        return cell;
    }

    /** A cell seen for the first time. */
    public CellState newCell(String cellId) {
        CellState cell = newState(cellId, new CellMeta(cellId));
        cell.markNew();
        return cell;
    }

    /** Writes what changed in the cell since the last flush. */
    public void flush(CellState cell) {
        if (!cell.hasChanges()) {
            return;
        }
        String id = cell.cellId;
        for (String jobId : cell.changedJobs) {
            JobRecord job = cell.job(jobId);
            if (job != null) {
                jobs.put(id, jobId, job);
            } else {
                jobs.delete(id, jobId);
            }
        }
        for (JobRecord job : cell.finishedJobs.values()) {
            finished.put(id, job.jobId(), job);
            finishedIndex.put(id, timeKey(job.finishedAtMs()) + '/' + job.jobId(), job.jobId());
        }
        for (String nodeId : cell.changedNodes) {
            nodes.put(id, nodeId, cell.nodes.get(nodeId));
        }
        for (String nodeId : cell.removedNodes) {
            nodes.delete(id, nodeId);
        }
        for (String jobId : cell.changedAssignments) {
            AssignmentRecord assignment = cell.assignments.get(jobId);
            if (assignment != null) {
                assignments.put(id, jobId, assignment);
            } else {
                assignments.delete(id, jobId);
            }
        }
        if (cell.memoryChanged) {
            distributions.put(id, cell.serviceDistribution());
            interference.put(id, cell.interferenceMemory());
        }
        if (cell.metaChanged) {
            meta.put(id, cell.meta());
        }
        cell.clearChanges();
    }

    /**
     * Deletes the records of jobs that ended before the start of the cell's current stream hour minus
     * {@code retention}, at most once per stream hour. What is deleted depends only on the cell's stream time, so a
     * replay of the same inbox deletes the same records at the same inputs, restarts or not.
     */
    public void expireFinished(CellState cell, Duration retention) {
        long now = cell.meta().timeMs();
        long hour = Math.floorDiv(now, HOUR_MS);
        if (now < 0 || hour <= cell.expiredThroughHour) {
            return;
        }
        cell.expiredThroughHour = hour;
        long cutoff = hour * HOUR_MS - retention.toMillis();
        if (cutoff <= 0) {
            return;
        }
        finishedIndex.below(cell.cellId, timeKey(cutoff)).forEach((indexId, jobId) -> {
            finished.delete(cell.cellId, jobId);
            finishedIndex.delete(cell.cellId, indexId);
        });
    }

    /**
     * Stream time as 16 hex digits, so index ids ({@code <end time>/<job id>}) sort by end time and a bare time
     * key sorts before every id of a later time and after every id of an earlier one.
     */
    private static String timeKey(long ms) {
        return String.format("%016x", Math.max(0, ms));
    }

    private CellState newState(String cellId, CellMeta m) {
        CellState cell = new CellState(cellId, m, policy.newServiceDistribution(), policy.newInterferenceMemory());
        cell.finishedLookup = jobId -> finished.get(cellId, jobId);
        return cell;
    }

    private CellState state(Map<String, CellState> cells, String cellId) {
        return cells.computeIfAbsent(cellId, c -> newState(c, new CellMeta(c)));
    }
}
