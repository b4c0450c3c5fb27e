package io.quanta.core.stage;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.placement.Placement;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Layer;
import io.quanta.core.plan.Placer;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Makes room for a gang that waits for a consolidated placement while enough GPUs are free, only not together
 * ({@code quanta.make-room}): the server that needs the fewest moves to hold the gang alone is emptied by migrating
 * its smaller running jobs onto free GPUs of other servers (Gandiva's migration, used here to de-fragment for a
 * waiting job rather than for a running one), and its free GPUs and the ones being vacated are held back for the
 * gang, which starts on them once the moves complete. A move costs its job a checkpoint and a restart (about a
 * minute), where waiting costs the gang its whole wait with those GPUs idle, and a preemption would cost a victim its
 * place. At most {@code maxMoves} moves per pass for all gangs together; a gang larger than one server, packed jobs,
 * jobs whose placement is still being checked and jobs with as many GPUs as the gang are never moved. When none of
 * the planned moves finds GPUs elsewhere, the server's free GPUs are given back for the jobs after the gang; when only
 * some do, those moves are made and the next pass plans again. One instance per pass.
 *
 * <p>{@link #reconsolidate} ({@code quanta.reconsolidate}) does the same for a running gang of at most one server's
 * GPUs that runs spread over servers (it started spread after its relaxation timeout): before the waiting jobs are
 * placed, it moves onto one server at once when one has the free GPUs, waits for GPUs being vacated for it, or has
 * room made for it as above. Spread, such a gang pays its locality slowdown for the rest of its run, which for the
 * gangs that wait long enough to be relaxed is often days; the move costs it one checkpoint and restart. Gandiva's
 * de-fragmenting migration ({@link Defragmenter}) moves a gang only onto GPUs that are free already, which a loaded
 * cell seldom has on one server.
 */
public final class MakeRoom implements FallbackStep {

    private final String policy;
    private final Placer placer;
    private final List<Job> running;
    private final int maxMoves;
    private final double moveMinRun;
    private Map<Integer, List<Job>> byNode;
    private int moves;
    /**
     * Gang shapes (GPUs and model) for which no server could be emptied since the pool last changed: the next gang of
     * the same shape in this pass is refused without scanning every server again (a full cell may have hundreds of
     * waiting gangs of 8 GPUs).
     */
    private final Set<Shape> failed = new HashSet<>();
    private long failedAt = -1;

    /**
     * @param running the pass's running jobs
     * @param maxMoves the most jobs moved in this pass to make room ({@code migration.max-per-pass})
     * @param moveMinRun seconds a job must have run since it last started (a start, a resume or a move) before it is
     *     moved to make room ({@code quanta.move-min-run-s}; 0 = no bound)
     */
    public MakeRoom(String policy, Placer placer, List<Job> running, int maxMoves, double moveMinRun) {
        this.policy = policy;
        this.placer = placer;
        this.running = running;
        this.maxMoves = maxMoves;
        this.moveMinRun = moveMinRun;
    }

    /** What a gang asks for: GPUs and, optionally, their model. */
    private record Shape(int gpus, Optional<String> model) {
    }

    /** A server to empty and the jobs to move off it. */
    private record Plan(int node, List<Job> movers, int movedGpus) {
    }

    @Override
    public boolean handle(Job waiting, Allocation alloc) {
        return alloc.pool().totalFree() >= waiting.numGpus()
                && makeRoom(waiting, alloc, "waiting for a consolidated placement");
    }

    /**
     * Moves the running gangs of at most one server's GPUs that are spread over servers onto one server each, in
     * {@link Defragmenter#spreadGangs} order (most spread first), within this pass's moves: at once where a server has
     * the free GPUs, else onto GPUs being vacated (held for the gang, no decision), else by making room. To be called
     * before the waiting jobs are placed, so that the room is not taken by them.
     */
    public void reconsolidate(Allocation alloc) {
        for (Job gang : Defragmenter.spreadGangs(running, alloc, placer)) {
            if (moves >= maxMoves) {
                return;
            }
            if (gang.numGpus() > alloc.cell().maxPerNode(gang.gpuType())) {
                continue;
            }
            int nodes = Defragmenter.nodesOf(gang.placement());
            ontoOneServer(gang, alloc, "running spread over " + nodes + " servers",
                    to -> policy + ": move job " + gang.id() + ", spread over " + nodes + " servers, onto "
                            + to.describe(),
                    to -> Text.details("fromNodes", Integer.toString(nodes), "toNodes", "1"));
        }
    }

    /**
     * Moves a packed gang of at most one server's GPUs that wants one server onto a server of its own
     * ({@code quanta.unpack-room}; called by {@link PackSplitter} when no job waits): at once where a server has the
     * free GPUs, else onto GPUs being vacated for it (held, no decision), else by making room as for a waiting gang.
     * Without it a packed gang that finds no free server stays packed, at half its speed or less, until a server
     * happens to free up, which on a cell that runs full most of the time can take days.
     *
     * @return true when the gang moved, or GPUs are held or being vacated for it
     */
    public boolean unpack(Job gang, Allocation alloc) {
        if (moves >= maxMoves || gang.numGpus() < 2 || gang.numGpus() > alloc.cell().maxPerNode(gang.gpuType())
                || !placer.rule().prefersConsolidation(gang)) {
            return false;
        }
        String shared = String.join(",", gang.sharingWith());
        return ontoOneServer(gang, alloc, "packed with " + shared,
                to -> policy + ": unpack job " + gang.id() + " (shared with " + shared + ") onto " + to.describe()
                        + ": no job waits, a server of its own lets it run alone",
                to -> Text.details("sharingWith", shared, "placement", to.describe()));
    }

    /**
     * Moves a running gang onto one server: at once where one has the free GPUs, else onto GPUs being vacated (held
     * for the gang, no decision), else by making room ({@code why} says why it needs one).
     *
     * @return true when the gang moved, or GPUs are held or being vacated for it
     */
    private boolean ontoOneServer(Job gang, Allocation alloc, String why, Function<Placement, String> reason,
                                  Function<Placement, SortedMap<String, String>> details) {
        Optional<Placement> now = placer.place(gang, alloc.pool(), Layer.FREE, true);
        if (now.isPresent()) {
            alloc.migrate(gang, now.get().gpus(), reason.apply(now.get()), details.apply(now.get()));
            moves++;
            return true;
        }
        Optional<Placement> soon = placer.place(gang, alloc.pool(), Layer.SOON, true);
        if (soon.isPresent()) {
            alloc.holdBack(gang, soon.get().gpus());
            return true;
        }
        return makeRoom(gang, alloc, why);
    }

    /** Empties the server that needs the fewest moves for {@code gang}; {@code why} says why it needs one. */
    private boolean makeRoom(Job gang, Allocation alloc, String why) {
        int need = gang.numGpus();
        CellIndex cell = alloc.cell();
        if (moves >= maxMoves || need < 2 || need > cell.maxPerNode(gang.gpuType())
                || !placer.rule().prefersConsolidation(gang)) {
            return false;
        }
        if (alloc.pool().version() != failedAt) {
            failed.clear();
            failedAt = alloc.pool().version();
        }
        Shape shape = new Shape(need, gang.gpuType());
        if (failed.contains(shape)) {
            return false;
        }
        Optional<Plan> plan = cheapest(gang, alloc);
        if (plan.isEmpty()) {
            failed.add(shape);
            return false;
        }
        int node = plan.get().node();
        List<GpuId> room = new ArrayList<>(alloc.pool().gpusOn(node, Layer.FREE, gang.gpuType()));
        alloc.holdBack(gang, room);
        int movesBefore = moves;
        for (Job mover : plan.get().movers()) {
            Optional<Placement> target = placer.place(mover, alloc.pool(), Layer.FREE, true);
            if (target.isEmpty()) {
                break;
            }
            alloc.migrate(mover, target.get().gpus(), policy + ": move job " + mover.id() + " off "
                            + cell.nodeId(node) + " to " + target.get().describe() + " to make room for gang "
                            + gang.id() + " (" + need + " GPUs, " + why + ")",
                    Text.details("forJob", gang.id(), "fromNode", cell.nodeId(node)));
            moves++;
        }
        if (moves == movesBefore) {
            alloc.releaseFreeHold(gang);
            return false;
        }
        // the server's free GPUs are taken now, so its SOON layer is exactly the GPUs being vacated (and freed
        // by suspensions planned earlier in this pass)
        room.addAll(alloc.pool().gpusOn(node, Layer.SOON, gang.gpuType()));
        alloc.holdBack(gang, room);
        return true;
    }

    /**
     * The server that holds the gang after the fewest moves (then the fewest GPUs moved, then the lowest position),
     * with moves only of jobs that fit the free GPUs of other servers in total and stay within this pass's budget.
     */
    private Optional<Plan> cheapest(Job gang, Allocation alloc) {
        CellIndex cell = alloc.cell();
        int need = gang.numGpus();
        Plan best = null;
        for (Map.Entry<Integer, List<Job>> e : jobsByNode(alloc).entrySet()) {
            int node = e.getKey();
            if (Long.bitCount(cell.usable(node) & cell.modelMask(gang.gpuType(), node)) < need) {
                continue;
            }
            int free = alloc.pool().countOn(node, Layer.FREE, gang.gpuType());
            List<Job> movable = new ArrayList<>();
            for (Job j : e.getValue()) {
                if (movable(j, need, alloc)) {
                    movable.add(j);
                }
            }
            movable.sort(Comparator.comparingInt(Job::numGpus).reversed().thenComparing(Ranking.byArrival()));
            List<Job> movers = new ArrayList<>();
            int covered = free;
            int movedGpus = 0;
            for (Job j : movable) {
                if (covered >= need) {
                    break;
                }
                movers.add(j);
                covered += j.numGpus();
                movedGpus += j.numGpus();
            }
            if (covered < need || movers.isEmpty() || movers.size() > maxMoves - moves
                    || alloc.pool().totalFree() - free < movedGpus) {
                continue;
            }
            Plan plan = new Plan(node, movers, movedGpus);
            if (best == null || better(plan, best)) {
                best = plan;
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean better(Plan a, Plan b) {
        if (a.movers().size() != b.movers().size()) {
            return a.movers().size() < b.movers().size();
        }
        if (a.movedGpus() != b.movedGpus()) {
            return a.movedGpus() < b.movedGpus();
        }
        return a.node() < b.node();
    }

    /**
     * A running job that is alone on its GPUs, all on one server, smaller than the gang, not acted on yet, and that
     * has run at least {@code moveMinRun} seconds since it last started: each move costs the job a checkpoint and a
     * restart, and without this bound nothing but the check of its new placement (two minutes) kept one job from
     * being moved again and again for other tenants' gangs.
     */
    private boolean movable(Job job, int need, Allocation alloc) {
        return job.state() == JobState.RUNNING && job.numGpus() < need && !job.isPacked()
                && job.placementChangedAt().isEmpty() && !alloc.hasActed(job.id())
                && job.executedSeconds() >= moveMinRun - 1e-6;
    }

    /** The running jobs whose GPUs are all on one server, by server position (built once per pass). */
    private Map<Integer, List<Job>> jobsByNode(Allocation alloc) {
        if (byNode == null) {
            byNode = new TreeMap<>();
            CellIndex cell = alloc.cell();
            for (Job j : running) {
                List<GpuId> gpus = j.placement();
                if (gpus.isEmpty()) {
                    continue;
                }
                String nodeId = gpus.get(0).nodeId();
                if (gpus.stream().allMatch(g -> g.nodeId().equals(nodeId))) {
                    int node = cell.nodeIndex(nodeId);
                    if (node >= 0) {
                        byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(j);
                    }
                }
            }
        }
        return byNode;
    }
}
