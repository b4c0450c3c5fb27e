package io.quanta.core.model;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Remembered bad pairs of model kinds: two models that, packed on the same GPUs, lost useful work (found by
 * introspection). Unordered pairs, bounded: when full the oldest pair is forgotten. Immutable: {@link #record}
 * returns a new value. Policies never pack a bad pair again.
 */
public final class InterferenceMemory {

    /** An unordered pair of model names, stored with {@code first <= second}. */
    public record Pair(String first, String second) {
        public Pair {
            Objects.requireNonNull(first, "first");
            Objects.requireNonNull(second, "second");
            if (first.compareTo(second) > 0) {
                String t = first;
                first = second;
                second = t;
            }
        }
    }

    private static final int FORMAT_VERSION = 1;

    private final int capacity;
    private final List<Pair> pairs;
    private final Set<Pair> index;

    private InterferenceMemory(int capacity, List<Pair> pairs) {
        if (capacity < 1) {
            throw new IllegalArgumentException("interference memory capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.pairs = List.copyOf(pairs);
        this.index = new HashSet<>(pairs);
    }

    /** An empty memory holding at most {@code capacity} pairs. */
    public static InterferenceMemory empty(int capacity) {
        return new InterferenceMemory(capacity, List.of());
    }

    /** Returns a memory that also remembers that {@code modelA} and {@code modelB} interfere. */
    public InterferenceMemory record(String modelA, String modelB) {
        Pair pair = new Pair(modelA, modelB);
        if (index.contains(pair)) {
            return this;
        }
        List<Pair> next = new ArrayList<>(pairs);
        next.add(pair);
        while (next.size() > capacity) {
            next.remove(0);
        }
        return new InterferenceMemory(capacity, next);
    }

    /** True when the two models are remembered as a bad pair (order does not matter). */
    public boolean isBadPair(String modelA, String modelB) {
        return index.contains(new Pair(modelA, modelB));
    }

    /** Remembered pairs, oldest first. */
    public List<Pair> pairs() {
        return pairs;
    }

    public int capacity() {
        return capacity;
    }

    /** Compact binary encoding (version, capacity, pairs oldest first) for a state store. */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            out.writeInt(capacity);
            out.writeInt(pairs.size());
            for (Pair p : pairs) {
                out.writeUTF(p.first());
                out.writeUTF(p.second());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Decodes {@link #toBytes()}; throws IllegalArgumentException on malformed input. */
    public static InterferenceMemory fromBytes(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int version = in.readUnsignedByte();
            if (version != FORMAT_VERSION) {
                throw new IllegalArgumentException("unknown interference memory format version " + version);
            }
            int capacity = in.readInt();
            int n = in.readInt();
            List<Pair> pairs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                pairs.add(new Pair(in.readUTF(), in.readUTF()));
            }
            return new InterferenceMemory(capacity, pairs);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed interference memory: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InterferenceMemory m && m.capacity == capacity && m.pairs.equals(pairs);
    }

    @Override
    public int hashCode() {
        return pairs.hashCode() * 31 + capacity;
    }

    @Override
    public String toString() {
        return "InterferenceMemory" + pairs;
    }
}
