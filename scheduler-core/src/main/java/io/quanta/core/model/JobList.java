package io.quanta.core.model;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * An immutable list of jobs in strictly increasing id order: what {@link ClusterSnapshot#jobs()} holds. A snapshot
 * given a {@code JobList} keeps it as it is, since its order was checked when it was made; a snapshot given any other
 * list sorts and checks a copy.
 *
 * <p>Why a list of our own: a cell builds a snapshot of all its active jobs for every pass, and for every wake-up
 * after it, while usually one or two jobs changed since the last one. Checking the order of 10,000 ids and copying
 * the list each time was a quarter of a pass (issue 17). A {@code JobList} is changed by
 * {@link #with}, {@link #without} and {@link #withViews}, each of which checks only what it changes: the position of
 * an inserted id (a binary search), or that a replaced job keeps its id.
 */
public final class JobList extends AbstractList<Job> implements RandomAccess {

    private static final JobList EMPTY = new JobList(new Job[0], new String[0]);

    private final Job[] jobs;
    /** The ids of {@link #jobs}, same positions; shared between lists that differ only in views. */
    private final String[] ids;

    private JobList(Job[] jobs, String[] ids) {
        this.jobs = jobs;
        this.ids = ids;
    }

    /** The empty list. */
    public static JobList empty() {
        return EMPTY;
    }

    /**
     * The jobs sorted by id. A job whose id was already seen is dropped (the snapshot counts such drops as
     * duplicates).
     */
    public static JobList of(List<Job> list) {
        if (list instanceof JobList same) {
            return same;
        }
        List<Job> sorted = SortedLists.byKey(list, Job::id);
        Job[] jobs = sorted.toArray(new Job[0]);
        String[] ids = new String[jobs.length];
        for (int i = 0; i < jobs.length; i++) {
            ids[i] = jobs[i].id();
        }
        return new JobList(jobs, ids);
    }

    @Override
    public Job get(int index) {
        return jobs[index];
    }

    @Override
    public int size() {
        return jobs.length;
    }

    /** The position of the job with this id, or {@code -(insertion point) - 1} when there is none. */
    public int indexOfId(String id) {
        return Arrays.binarySearch(ids, id);
    }

    /** This list with {@code job} in its place: replacing the job of the same id, or inserted in id order. */
    public JobList with(Job job) {
        int i = indexOfId(job.id());
        if (i >= 0) {
            if (jobs[i] == job) {
                return this;
            }
            Job[] replaced = jobs.clone();
            replaced[i] = job;
            return new JobList(replaced, ids);
        }
        int at = -i - 1;
        Job[] grown = new Job[jobs.length + 1];
        String[] grownIds = new String[ids.length + 1];
        System.arraycopy(jobs, 0, grown, 0, at);
        System.arraycopy(ids, 0, grownIds, 0, at);
        grown[at] = job;
        grownIds[at] = job.id();
        System.arraycopy(jobs, at, grown, at + 1, jobs.length - at);
        System.arraycopy(ids, at, grownIds, at + 1, ids.length - at);
        return new JobList(grown, grownIds);
    }

    /** This list without the job of this id (the same list when there is none). */
    public JobList without(String id) {
        int i = indexOfId(id);
        if (i < 0) {
            return this;
        }
        Job[] shrunk = new Job[jobs.length - 1];
        String[] shrunkIds = new String[ids.length - 1];
        System.arraycopy(jobs, 0, shrunk, 0, i);
        System.arraycopy(ids, 0, shrunkIds, 0, i);
        System.arraycopy(jobs, i + 1, shrunk, i, jobs.length - i - 1);
        System.arraycopy(ids, i + 1, shrunkIds, i, ids.length - i - 1);
        return new JobList(shrunk, shrunkIds);
    }

    /**
     * The same jobs in other views (e.g. moved to another instant): {@code viewAt.apply(i)} replaces the job at
     * position {@code i} and must have its id. This list itself when every view is the job already there; otherwise
     * one new array, made at the first view that differs.
     *
     * @throws IllegalArgumentException when a view has another id
     */
    public JobList withViews(IntFunction<Job> viewAt) {
        Job[] moved = null;
        for (int i = 0; i < jobs.length; i++) {
            Job view = viewAt.apply(i);
            if (view == jobs[i]) {
                continue;
            }
            String id = view.id();
            if (id != ids[i] && !id.equals(ids[i])) {
                throw new IllegalArgumentException("job view " + i + " is job " + id + ", expected " + ids[i]);
            }
            if (moved == null) {
                moved = jobs.clone();
            }
            moved[i] = view;
        }
        return moved == null ? this : new JobList(moved, ids);
    }
}
