package io.quanta.core.decision;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

import java.util.List;
import java.util.stream.Stream;

/**
 * The ordered, deterministic result of one scheduling pass. The processor applies the decisions in this order:
 * queue changes and introspection outcomes first, then suspensions and migrations, then starts and packs.
 *
 * @param list    the decisions
 * @param waiting why each job left waiting by this pass waits, in the policy's own terms, by job id (not decisions:
 *                nothing is applied, the cell shows them as the jobs' current reason)
 */
public record Decisions(List<Decision> list, SortedMap<String, WaitingReason> waiting) {

    private static final Decisions NONE = new Decisions(List.of());

    public Decisions {
        list = List.copyOf(list);
        waiting = Collections.unmodifiableSortedMap(new TreeMap<>(waiting));
    }

    /** Decisions without waiting reasons. */
    public Decisions(List<Decision> list) {
        this(list, new TreeMap<>());
    }

    /** The empty result: nothing to do. */
    public static Decisions none() {
        return NONE;
    }

    /** True when there is no decision (there may still be waiting reasons). */
    public boolean isEmpty() {
        return list.isEmpty();
    }

    public int size() {
        return list.size();
    }

    public Stream<Decision> stream() {
        return list.stream();
    }

    /** The decisions of one type, in order. */
    public <T extends Decision> List<T> ofType(Class<T> type) {
        return list.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
