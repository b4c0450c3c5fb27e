package io.quanta.streams.cell;

import io.quanta.core.model.Gpu;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobList;
import io.quanta.core.model.Node;
import io.quanta.core.model.ServiceDistribution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The in-memory state of one cell: its active (non-terminal) jobs, nodes, assignments, learned memory and meta, plus
 * the derived GPU occupancy and the set of entries changed since the last flush. A write-through cache: every change
 * goes through the methods here so that {@link CellRepository#flush} writes exactly what changed. Iteration is always
 * in key order (sorted maps), which keeps the scheduler deterministic.
 */
public final class CellState {

    final String cellId;
    private CellMeta meta;
    private final SortedMap<String, ActiveJob> jobs = new TreeMap<>();
    final SortedMap<String, NodeRecord> nodes = new TreeMap<>();
    final SortedMap<String, AssignmentRecord> assignments = new TreeMap<>();
    private ServiceDistribution serviceDistribution;
    private InterferenceMemory interferenceMemory;
    Function<String, JobRecord> finishedLookup = id -> null;
    /** The stream hour up to which ended jobs' records were last expired (in memory; an extra check is harmless). */
    long expiredThroughHour = Long.MIN_VALUE;

    private final Map<GpuId, TreeSet<String>> occupancy = new HashMap<>();
    /** Derived from the assignments: the jobs whose placement or reservation uses a GPU of the node, by node. */
    private final Map<String, TreeSet<String>> jobsByNode = new HashMap<>();
    private final Map<String, Node> nodeViews = new HashMap<>();
    /** The node views in node-id order as the last snapshot took them; null when the set of nodes changed. */
    private Node[] nodeList;
    private String[] nodeListIds;
    /** Nodes whose view changed since {@link #nodeList} was taken. */
    private final Set<String> staleInNodeList = new HashSet<>();
    /**
     * The job views of the last snapshot, in job-id order, as {@link #jobViews} returned them; null when they must be
     * built again from all jobs (at start, after a restore, after many changes or with another filter).
     */
    private JobList viewList;
    /** The active job of each entry of {@link #viewList}, same positions. */
    private final List<ActiveJob> viewOwners = new ArrayList<>();
    private long viewListAtMs;
    private Predicate<JobRecord> viewFilter;
    /** More changed jobs than this since the last snapshot: {@link #jobViews} builds its list from all jobs again. */
    private static final int MAX_VIEW_CHANGES = 32;
    /** Jobs whose view, or whether they are in {@link #viewList} at all, changed since it was taken. */
    private final Set<String> staleInViewList = new HashSet<>();
    final Set<String> changedJobs = new LinkedHashSet<>();
    /** The jobs that ended since the last flush, in the order they ended. */
    final Map<String, JobRecord> finishedJobs = new LinkedHashMap<>();
    final Set<String> changedNodes = new LinkedHashSet<>();
    final Set<String> removedNodes = new LinkedHashSet<>();
    final Set<String> changedAssignments = new LinkedHashSet<>();
    boolean metaChanged;
    boolean memoryChanged;

    CellState(String cellId, CellMeta meta, ServiceDistribution serviceDistribution,
              InterferenceMemory interferenceMemory) {
        this.cellId = cellId;
        this.meta = meta;
        this.serviceDistribution = serviceDistribution;
        this.interferenceMemory = interferenceMemory;
    }

    /** The cell id. */
    public String cellId() {
        return cellId;
    }

    /** The cell's meta (read-only use outside this package). */
    public CellMeta meta() {
        return meta;
    }

    // ---- jobs

    /** An active job with the snapshot view last built for it (not stored). */
    private static final class ActiveJob {
        JobRecord record;
        /** Valid until the record or its assignment changes, or (when time-dependent) the stream time moves. */
        Job view;
        long viewAtMs;
        boolean viewTimeDependent;

        ActiveJob(JobRecord record) {
            this.record = record;
        }
    }

    /** Derived from the jobs (null = to be computed): the ids of the draining ones, usually none. */
    private List<String> draining;

    /** The active job with this id, or null. */
    JobRecord job(String jobId) {
        ActiveJob active = jobs.get(jobId);
        return active == null ? null : active.record;
    }

    /** Adds a new job (a submission): it is flushed. */
    void putJob(JobRecord job) {
        if (jobs.putIfAbsent(job.jobId(), new ActiveJob(job)) != null) {
            throw new IllegalStateException("job " + job.jobId() + " is already active in cell " + cellId);
        }
        changedJobs.add(job.jobId());
        staleInViewList.add(job.jobId());
        if (job.drainPeers()) {
            draining = null;
        }
    }

    /** Adds a job read from the store (nothing to flush). */
    void loadJob(JobRecord job) {
        jobs.put(job.jobId(), new ActiveJob(job));
        draining = null;
        viewList = null;
    }

    /**
     * Changes an active job: the changes {@code change} makes to a draft of it. When they make a different value it
     * replaces the job, is flushed, and the job's snapshot view is rebuilt.
     *
     * @return the job as it is now
     */
    JobRecord changeJob(String jobId, Consumer<JobRecord.Draft> change) {
        ActiveJob active = jobs.get(jobId);
        if (active == null) {
            throw new IllegalStateException("job " + jobId + " is not active in cell " + cellId);
        }
        JobRecord before = active.record;
        JobRecord after = before.with(change);
        if (after.equals(before)) {
            return before;
        }
        active.record = after;
        active.view = null;
        staleInViewList.add(jobId);
        changedJobs.add(jobId);
        if (before.drainPeers() || after.drainPeers()) {
            draining = null;
        }
        return after;
    }

    /**
     * The ids of the jobs waiting for the other members of an ended gang attempt to stop
     * ({@link JobRecord#drainPeers}).
     */
    List<String> drainingJobs() {
        if (draining == null) {
            draining = jobs.values().stream().map(a -> a.record).filter(JobRecord::drainPeers)
                    .map(JobRecord::jobId).toList();
        }
        return draining;
    }

    /** Moves a job that reached a terminal state out of the active set (into the finished-jobs store). */
    void finishJob(String jobId) {
        ActiveJob active = jobs.remove(jobId);
        if (active == null) {
            throw new IllegalStateException("job " + jobId + " is not active in cell " + cellId);
        }
        draining = null;
        changedJobs.add(jobId);
        staleInViewList.add(jobId);
        finishedJobs.put(jobId, active.record);
    }

    /** The job with this id that already reached a terminal state in this cell, or null. */
    JobRecord finishedJob(String jobId) {
        return finishedLookup.apply(jobId);
    }

    /** The job as it stands now: active, or ended since the last flush; null when neither. */
    JobRecord latest(String jobId) {
        JobRecord job = job(jobId);
        return job != null ? job : finishedJobs.get(jobId);
    }

    // ---- assignments and occupancy

    /**
     * Puts an attempt's assignment, new or changed: it is flushed, and the occupancy (with the views of the job and
     * the nodes whose GPUs it takes or gives back) follows when it holds other GPUs than before.
     */
    void putAssignment(AssignmentRecord assignment) {
        AssignmentRecord previous = assignments.put(assignment.jobId(), assignment);
        changedAssignments.add(assignment.jobId());
        if (previous != null && previous.holdsSameGpus(assignment)) {
            return;
        }
        forgetView(assignment.jobId());
        if (previous != null) {
            release(previous);
        }
        occupy(assignment);
    }

    /** Adds an assignment read from the store (occupancy only, nothing to flush). */
    void loadAssignment(AssignmentRecord assignment) {
        assignments.put(assignment.jobId(), assignment);
        occupy(assignment);
        viewList = null;
    }

    /** Changes the reserved GPUs of an assignment, keeping the occupancy in step; returns the changed assignment. */
    AssignmentRecord reserve(AssignmentRecord assignment, List<GpuId> reserved) {
        AssignmentRecord changed = assignment.withReserved(reserved);
        putAssignment(changed);
        return changed;
    }

    void removeAssignment(String jobId) {
        forgetView(jobId);
        AssignmentRecord previous = assignments.remove(jobId);
        if (previous != null) {
            release(previous);
            changedAssignments.add(jobId);
        }
    }

    /** Jobs occupying or reserving the GPU, sorted; empty when none. */
    Set<String> occupants(GpuId gpu) {
        TreeSet<String> ids = occupancy.get(gpu);
        return ids == null ? Set.of() : ids;
    }

    /**
     * Ids of the jobs whose assignment touches the node (placement or reservation), sorted; from an index kept with
     * the occupancy, so a heartbeat does not scan every assignment of the cell.
     */
    List<String> jobsOnNode(String nodeId) {
        TreeSet<String> ids = jobsByNode.get(nodeId);
        return ids == null ? new ArrayList<>() : new ArrayList<>(ids);
    }

    private void occupy(AssignmentRecord assignment) {
        for (GpuId gpu : assignment.occupied()) {
            occupancy.computeIfAbsent(gpu, g -> new TreeSet<>()).add(assignment.jobId());
            jobsByNode.computeIfAbsent(gpu.nodeId(), n -> new TreeSet<>()).add(assignment.jobId());
            forgetNodeView(gpu.nodeId());
        }
    }

    private void release(AssignmentRecord assignment) {
        for (GpuId gpu : assignment.occupied()) {
            TreeSet<String> ids = occupancy.get(gpu);
            if (ids != null) {
                ids.remove(assignment.jobId());
                if (ids.isEmpty()) {
                    occupancy.remove(gpu);
                }
            }
            TreeSet<String> onNode = jobsByNode.get(gpu.nodeId());
            if (onNode != null) {
                onNode.remove(assignment.jobId());
                if (onNode.isEmpty()) {
                    jobsByNode.remove(gpu.nodeId());
                }
            }
            forgetNodeView(gpu.nodeId());
        }
    }

    // ---- nodes

    /**
     * Puts a node, new or changed: it is flushed. Its snapshot view is rebuilt only when what the view shows changed
     * (rack, liveness, GPUs): a heartbeat that only moves {@code lastSeenMs} keeps it.
     */
    void putNode(NodeRecord node) {
        NodeRecord previous = nodes.put(node.nodeId(), node);
        removedNodes.remove(node.nodeId());
        changedNodes.add(node.nodeId());
        if (previous == null) {
            nodeList = null;
            forgetNodeView(node.nodeId());
        } else {
            Node view = nodeViews.get(node.nodeId());
            if (view != null && !sameView(view, node)) {
                forgetNodeView(node.nodeId());
            }
        }
    }

    void removeNode(String nodeId) {
        nodes.remove(nodeId);
        changedNodes.remove(nodeId);
        removedNodes.add(nodeId);
        forgetNodeView(nodeId);
        nodeList = null;
    }

    private void forgetNodeView(String nodeId) {
        nodeViews.remove(nodeId);
        staleInNodeList.add(nodeId);
    }

    /** True when {@code view} still shows {@code node}'s rack, liveness and GPUs (occupancy is kept apart). */
    private static boolean sameView(Node view, NodeRecord node) {
        if (view.alive() != node.alive() || !view.rack().equals(node.rack())
                || view.gpus().size() != node.gpus().size()) {
            return false;
        }
        for (int i = 0; i < node.gpus().size(); i++) {
            Gpu v = view.gpus().get(i);
            NodeRecord.GpuRecord g = node.gpus().get(i);
            if (v.index() != g.index() || v.memoryMiB() != g.memoryMiB() || v.healthy() != g.healthy()
                    || !v.model().equals(g.model())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every node as the scheduling core sees it, in node-id order: the list of the previous call with the views that
     * changed since replaced, rebuilt whole only when nodes joined or left.
     */
    List<Node> nodeViews() {
        if (nodeList == null || nodeList.length != nodes.size()) {
            nodeList = new Node[nodes.size()];
            nodeListIds = new String[nodes.size()];
            int i = 0;
            for (NodeRecord node : nodes.values()) {
                nodeListIds[i] = node.nodeId();
                nodeList[i++] = nodeView(node);
            }
        } else {
            for (String id : staleInNodeList) {
                int i = Arrays.binarySearch(nodeListIds, id);
                if (i >= 0) {
                    nodeList[i] = nodeView(nodes.get(id));
                }
            }
        }
        staleInNodeList.clear();
        return Arrays.asList(nodeList.clone());
    }

    /** The node as the scheduling core sees it, cached until its GPUs, health or occupancy change. */
    Node nodeView(NodeRecord node) {
        return nodeViews.computeIfAbsent(node.nodeId(), id -> {
            List<Gpu> gpus = new ArrayList<>(node.gpus().size());
            for (NodeRecord.GpuRecord g : node.gpus()) {
                gpus.add(new Gpu(g.index(), g.model(), g.memoryMiB(), g.healthy(),
                        List.copyOf(occupants(new GpuId(id, g.index())))));
            }
            return new Node(id, node.rack(), node.alive(), gpus);
        });
    }

    /**
     * The active jobs that {@code include} accepts as the scheduling core sees them at {@code nowMs}, in job-id order.
     * A job's view is cached until the job or its assignment changes, or, for a job whose service, executed or
     * waiting time grows with time, until {@code nowMs} changes. The list itself is kept between calls and changed
     * where jobs changed, so that a snapshot after a pass that started one job costs a copy, not a walk over every
     * job of the cell and a check of their order (issue 17); a change of {@code nowMs} still moves every running
     * job's view. The result is the same list a walk over all jobs would give ({@code JobViewListTest}).
     */
    List<Job> jobViews(long nowMs, Predicate<JobRecord> include) {
        // each changed job costs a copy of the list; past a few dozen, one walk over all jobs is cheaper
        if (viewList == null || include != viewFilter || staleInViewList.size() > MAX_VIEW_CHANGES) {
            rebuildViewList(nowMs, include);
        } else {
            for (String id : staleInViewList) {
                updateViewList(id, jobs.get(id), nowMs, include);
            }
            if (viewListAtMs != nowMs) {
                moveViewList(nowMs);
            }
        }
        staleInViewList.clear();
        viewListAtMs = nowMs;
        viewFilter = include;
        return viewList;
    }

    private void rebuildViewList(long nowMs, Predicate<JobRecord> include) {
        List<Job> views = new ArrayList<>(jobs.size());
        viewOwners.clear();
        for (ActiveJob active : jobs.values()) {
            if (include.test(active.record)) {
                views.add(jobView(active, nowMs));
                viewOwners.add(active);
            }
        }
        viewList = JobList.of(views);
    }

    private void updateViewList(String id, ActiveJob active, long nowMs, Predicate<JobRecord> include) {
        int at = viewList.indexOfId(id);
        if (active == null || !include.test(active.record)) {
            if (at >= 0) {
                viewList = viewList.without(id);
                viewOwners.remove(at);
            }
            return;
        }
        viewList = viewList.with(jobView(active, nowMs));
        if (at >= 0) {
            viewOwners.set(at, active);
        } else {
            viewOwners.add(-at - 1, active);
        }
    }

    private void moveViewList(long nowMs) {
        viewList = viewList.withViews(i -> jobView(viewOwners.get(i), nowMs));
    }

    private Job jobView(ActiveJob active, long nowMs) {
        Job cached = active.view;
        if (cached != null && (active.viewAtMs == nowMs || !active.viewTimeDependent)) {
            return cached;
        }
        JobRecord job = active.record;
        Job view = cached == null ? SnapshotBuilder.job(job, assignments.get(job.jobId()), nowMs)
                : SnapshotBuilder.moved(cached, job, nowMs);
        active.view = view;
        active.viewAtMs = nowMs;
        active.viewTimeDependent = SnapshotBuilder.timeDependent(job);
        return view;
    }

    private void forgetView(String jobId) {
        ActiveJob active = jobs.get(jobId);
        if (active != null) {
            active.view = null;
            staleInViewList.add(jobId);
        }
    }

    /** True when the GPU exists, its node is alive and it is healthy. */
    boolean usable(GpuId gpu) {
        NodeRecord node = nodes.get(gpu.nodeId());
        if (node == null || !node.alive()) {
            return false;
        }
        for (NodeRecord.GpuRecord g : node.gpus()) {
            if (g.index() == gpu.index()) {
                return g.healthy();
            }
        }
        return false;
    }

    /** The GPU record, or null when the node or index is unknown. */
    NodeRecord.GpuRecord gpu(GpuId gpu) {
        NodeRecord node = nodes.get(gpu.nodeId());
        if (node == null) {
            return null;
        }
        for (NodeRecord.GpuRecord g : node.gpus()) {
            if (g.index() == gpu.index()) {
                return g;
            }
        }
        return null;
    }

    // ---- memory and meta

    /** Changes the cell's meta; it is flushed when the change made a different value. */
    void changeMeta(Consumer<CellMeta.Draft> change) {
        CellMeta changed = meta.with(change);
        if (!changed.equals(meta)) {
            meta = changed;
            metaChanged = true;
        }
    }

    /** Marks the meta and the learned memory for the flush: a cell the stores do not know yet. */
    void markNew() {
        metaChanged = true;
        memoryChanged = true;
    }

    /** The learned distribution of completed jobs' service. */
    ServiceDistribution serviceDistribution() {
        return serviceDistribution;
    }

    /** The learned pairs of models that interfere when they share GPUs. */
    InterferenceMemory interferenceMemory() {
        return interferenceMemory;
    }

    /** Adds a completed job's service (GPU-seconds) to the learned distribution and its tenant's; it is flushed. */
    void recordService(String tenant, double gpuSeconds) {
        serviceDistribution = serviceDistribution.record(tenant, gpuSeconds);
        memoryChanged = true;
    }

    /** Learns that two models interfere; it is flushed. */
    void recordInterference(String modelA, String modelB) {
        interferenceMemory = interferenceMemory.record(modelA, modelB);
        memoryChanged = true;
    }

    /** Takes the learned memory read from the stores (nothing to flush); null keeps the policy's initial one. */
    void loadMemory(ServiceDistribution distribution, InterferenceMemory memory) {
        if (distribution != null) {
            serviceDistribution = distribution;
        }
        if (memory != null) {
            interferenceMemory = memory;
        }
    }

    /** True when something changed since the last flush. */
    boolean hasChanges() {
        return metaChanged || memoryChanged || !changedJobs.isEmpty() || !changedNodes.isEmpty()
                || !removedNodes.isEmpty() || !changedAssignments.isEmpty();
    }

    void clearChanges() {
        changedJobs.clear();
        finishedJobs.clear();
        changedNodes.clear();
        removedNodes.clear();
        changedAssignments.clear();
        metaChanged = false;
        memoryChanged = false;
    }
}
