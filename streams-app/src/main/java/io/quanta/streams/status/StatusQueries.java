package io.quanta.streams.status;

import io.quanta.schemas.JobStatus;
import io.quanta.streams.SchedulerTopology;
import io.quanta.streams.cell.AssignmentRecord;
import io.quanta.streams.cell.CellMeta;
import io.quanta.streams.cell.JobRecord;
import io.quanta.streams.cell.NodeRecord;
import io.quanta.streams.cell.Statuses;
import io.quanta.streams.router.JobRoute;
import io.quanta.streams.router.JobRouteStore;
import io.quanta.streams.status.StatusViews.CellSummary;
import io.quanta.streams.status.StatusViews.JobView;
import io.quanta.streams.status.StatusViews.NodeView;
import io.quanta.streams.store.CellScopedStore;
import io.quanta.streams.store.CellValueStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The status queries answered from this instance's stores (interactive queries), or pointed at the instance that owns
 * the key. A job is found through the router's job-to-cell store, then read from its cell's stores.
 */
public final class StatusQueries {

    private final StateAccess state;

    public StatusQueries(StateAccess state) {
        this.state = state;
    }

    /** The access this instance queries through. */
    public StateAccess state() {
        return state;
    }

    /** {@code GET /jobs/{id}}. */
    public Answer<JobView> job(String jobId) {
        Optional<HostInfo> owner;
        try {
            owner = state.remoteOwner(SchedulerTopology.JOB_ROUTES_STORE, jobId);
        } catch (IllegalStateException e) {
            return new Answer.Unavailable<>(e.getMessage());
        }
        if (owner.isPresent()) {
            return new Answer.Elsewhere<>(owner.get().host(), owner.get().port(), "/jobs/" + segment(jobId));
        }
        JobRoute route = JobRouteStore.readOnly(state.<JobRoute>store(SchedulerTopology.JOB_ROUTES_STORE)).get(jobId);
        if (route == null) {
            return new Answer.NotFound<>("no job " + jobId);
        }
        return cellJob(route.cellId(), jobId);
    }

    /** {@code GET /cells/{cell}/jobs/{id}}: a job read from its cell's stores. */
    public Answer<JobView> cellJob(String cellId, String jobId) {
        Optional<Answer<JobView>> elsewhere = ownerOfCell(cellId, "/cells/" + segment(cellId) + "/jobs/"
                + segment(jobId));
        if (elsewhere.isPresent()) {
            return elsewhere.get();
        }
        CellView cell = cell(cellId);
        JobRecord job = cell.jobs().get(jobId);
        if (job == null) {
            job = CellScopedStore.readOnly(state.<JobRecord>store(SchedulerTopology.FINISHED_JOBS_STORE))
                    .get(cellId, jobId);
        }
        if (job == null) {
            return new Answer.NotFound<>("no job " + jobId + " in cell " + cellId + " (not yet there, or it ended longer "
                    + "ago than scheduler.finished.retention.hours)");
        }
        return new Answer.Found<>(view(cell, job));
    }

    /** {@code GET /cells/{id}/summary}. */
    public Answer<CellSummary> cellSummary(String cellId) {
        Optional<Answer<CellSummary>> elsewhere = ownerOfCell(cellId, "/cells/" + segment(cellId)
                + "/summary");
        if (elsewhere.isPresent()) {
            return elsewhere.get();
        }
        CellView cell = cell(cellId);
        if (cell.meta() == null) {
            return new Answer.NotFound<>("no cell " + cellId);
        }
        return new Answer.Found<>(summary(cell));
    }

    /** The summaries of the cells this instance holds, sorted by id ({@code GET /cells} gathers them). */
    public List<CellSummary> localCells() {
        List<CellSummary> out = new ArrayList<>();
        CellValueStore.readOnly(state.<CellMeta>store(SchedulerTopology.CELL_META_STORE)).forEach((cellId, meta) ->
                out.add(summary(cell(cellId))));
        out.sort(Comparator.comparing(CellSummary::cellId));
        return out;
    }

    private static CellSummary summary(CellView cell) {
        String cellId = cell.cellId();
        int total = cell.totalGpus();
        int free = cell.freeGpus(null);
        int used = cell.occupancy().size();
        int alive = (int) cell.nodes().values().stream().filter(NodeRecord::alive).count();
        CellMeta meta = cell.meta();
        return new CellSummary(cellId, StatusViews.text(meta.timeMs()), total, used, free,
                total - used - free, alive, cell.nodes().size() - alive,
                cell.count(io.quanta.core.model.JobState.QUEUED), cell.count(io.quanta.core.model.JobState.STARTING),
                cell.count(io.quanta.core.model.JobState.RUNNING),
                cell.count(io.quanta.core.model.JobState.SUSPENDING), cell.queueLengths(), meta.seq(), meta.passes(),
                StatusViews.text(meta.nextWakeUpMs()), meta.droppedTelemetry());
    }

    /** Jobs held by this instance in one of {@code wantedStates} (JobState names; empty = all), sorted by id. */
    public List<JobView> localJobs(Set<String> wantedStates) {
        List<JobView> out = new ArrayList<>();
        Map<String, CellView> cells = new HashMap<>();
        CellScopedStore.readOnly(state.<JobRecord>store(SchedulerTopology.JOBS_STORE)).forEach((cellId, job) -> {
            if (wantedStates.isEmpty() || wantedStates.contains(job.state().name())) {
                out.add(view(cells.computeIfAbsent(cellId, this::cell), job));
            }
        });
        boolean terminalWanted = wantedStates.isEmpty() || wantedStates.stream()
                .anyMatch(s -> io.quanta.core.model.JobState.valueOf(s).isTerminal());
        if (terminalWanted) {
            CellScopedStore.readOnly(state.<JobRecord>store(SchedulerTopology.FINISHED_JOBS_STORE))
                    .forEach((cellId, job) -> {
                        if (wantedStates.isEmpty() || wantedStates.contains(job.state().name())) {
                            out.add(view(null, job));
                        }
                    });
        }
        out.sort(Comparator.comparing(JobView::jobId));
        return out;
    }

    /** Nodes held by this instance, sorted by cell then id. */
    public List<NodeView> localNodes() {
        List<NodeView> out = new ArrayList<>();
        Map<String, CellView> cells = new HashMap<>();
        CellScopedStore.readOnly(state.<NodeRecord>store(SchedulerTopology.NODES_STORE)).forEach((cellId, node) ->
                out.add(NodeView.of(node, cells.computeIfAbsent(cellId, this::cell).occupancy())));
        return out;
    }

    private <T> Optional<Answer<T>> ownerOfCell(String cellId, String path) {
        try {
            return state.remoteOwner(SchedulerTopology.CELL_META_STORE, cellId)
                    .map(h -> new Answer.Elsewhere<>(h.host(), h.port(), path));
        } catch (IllegalStateException e) {
            return Optional.of(new Answer.Unavailable<>(e.getMessage()));
        }
    }

    /** A path segment for {@code value}: every character but the unreserved ones percent-encoded. */
    static String segment(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }

    private CellView cell(String cellId) {
        TreeMap<String, JobRecord> jobs = new TreeMap<>();
        CellScopedStore.readOnly(state.<JobRecord>store(SchedulerTopology.JOBS_STORE)).scan(cellId)
                .forEach(j -> jobs.put(j.jobId(), j));
        TreeMap<String, NodeRecord> nodes = new TreeMap<>();
        CellScopedStore.readOnly(state.<NodeRecord>store(SchedulerTopology.NODES_STORE)).scan(cellId)
                .forEach(n -> nodes.put(n.nodeId(), n));
        TreeMap<String, AssignmentRecord> assignments = new TreeMap<>();
        CellScopedStore.readOnly(state.<AssignmentRecord>store(SchedulerTopology.ASSIGNMENTS_STORE)).scan(cellId)
                .forEach(a -> assignments.put(a.jobId(), a));
        CellMeta meta = CellValueStore.readOnly(state.<CellMeta>store(SchedulerTopology.CELL_META_STORE)).get(cellId);
        return new CellView(cellId, meta, jobs, nodes, assignments);
    }

    private static JobView view(CellView cell, JobRecord job) {
        long now = cell != null && cell.timeMs() >= 0 ? cell.timeMs() : Math.max(0, job.finishedAtMs());
        AssignmentRecord assignment = cell == null ? null : cell.assignments().get(job.jobId());
        JobStatus status = Statuses.of(job, assignment, now);
        return JobView.of(status, cell == null ? "" : cell.whyWaiting(job));
    }
}
