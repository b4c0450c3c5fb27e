package io.quanta.core.model;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.Function;

/**
 * Immutable sorted, duplicate-free copies of lists, cheap when the input is already sorted (the common case) and
 * free when it is a list this class made for the natural order (a job view moved to another instant keeps its
 * placement lists, and checking them again for each of 10,000 jobs per snapshot was measurable: issue 17).
 */
final class SortedLists {

    private SortedLists() {
    }

    static <T extends Comparable<? super T>> List<T> of(List<T> list) {
        if (list instanceof Checked<?>) {
            return list;
        }
        for (int i = 1; i < list.size(); i++) {
            if (list.get(i - 1).compareTo(list.get(i)) >= 0) {
                return Checked.natural(sortedCopy(list, Comparator.naturalOrder()));
            }
        }
        return Checked.natural(list);
    }

    static <T> List<T> of(List<T> list, Comparator<? super T> order) {
        boolean sorted = true;
        for (int i = 1; i < list.size() && sorted; i++) {
            sorted = order.compare(list.get(i - 1), list.get(i)) < 0;
        }
        return sorted ? List.copyOf(list) : sortedCopy(list, order);
    }

    /**
     * Sorted by a string key (ids), checking the common already-sorted case on the keys directly rather than
     * through a comparator, which is measurably cheaper for snapshots of thousands of jobs.
     */
    static <T> List<T> byKey(List<T> list, Function<? super T, String> key) {
        for (int i = 1; i < list.size(); i++) {
            if (key.apply(list.get(i - 1)).compareTo(key.apply(list.get(i))) >= 0) {
                return sortedCopy(list, Comparator.comparing(key));
            }
        }
        return List.copyOf(list);
    }

    private static <T> List<T> sortedCopy(List<T> list, Comparator<? super T> order) {
        List<T> copy = new ArrayList<>(list);
        copy.sort(order);
        List<T> out = new ArrayList<>(copy.size());
        for (T t : copy) {
            if (out.isEmpty() || order.compare(out.get(out.size() - 1), t) != 0) {
                out.add(t);
            }
        }
        return List.copyOf(out);
    }

    /** An immutable list this class checked: sorted in natural order, no duplicates, no nulls. */
    private static final class Checked<T> extends AbstractList<T> implements RandomAccess {
        private static final Checked<?> EMPTY = new Checked<>(new Object[0]);

        private final Object[] items;

        private Checked(Object[] items) {
            this.items = items;
        }

        @SuppressWarnings("unchecked")
        static <T> List<T> natural(List<T> sorted) {
            if (sorted.isEmpty()) {
                return (List<T>) EMPTY;
            }
            Object[] items = sorted.toArray();
            for (Object item : items) {
                Objects.requireNonNull(item, "list element");
            }
            return new Checked<>(items);
        }

        @Override
        @SuppressWarnings("unchecked")
        public T get(int index) {
            return (T) items[index];
        }

        @Override
        public int size() {
            return items.length;
        }
    }
}
