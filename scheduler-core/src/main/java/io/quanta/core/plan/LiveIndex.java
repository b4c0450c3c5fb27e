package io.quanta.core.plan;

/**
 * Positions 0..n-1 of a list, some of which get removed for good during a pass; finds the next live position in
 * amortised near-constant time (union-find with path compression), so repeated scans never revisit removed items.
 */
public final class LiveIndex {

    private final int[] next;

    public LiveIndex(int size) {
        next = new int[size + 1];
        for (int i = 0; i <= size; i++) {
            next[i] = i;
        }
    }

    /** The first live position at or after {@code from}, or {@code size} when none. */
    public int first(int from) {
        int root = from;
        while (next[root] != root) {
            root = next[root];
        }
        int i = from;
        while (next[i] != root) {
            int up = next[i];
            next[i] = root;
            i = up;
        }
        return root;
    }

    /** Removes a position for the rest of the pass. */
    public void remove(int position) {
        if (position < next.length - 1) {
            next[position] = position + 1;
        }
    }
}
