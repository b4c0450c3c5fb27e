package io.quanta.core.decision;

import java.util.List;
import java.util.stream.Stream;

/**
 * The ordered, deterministic result of one scheduling pass. The processor applies the decisions in this order:
 * queue changes and introspection outcomes first, then suspensions and migrations, then starts and packs.
 */
public record Decisions(List<Decision> list) {

    private static final Decisions NONE = new Decisions(List.of());

    public Decisions {
        list = List.copyOf(list);
    }

    /** The empty result: nothing to do. */
    public static Decisions none() {
        return NONE;
    }

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
