package io.quanta.core.model;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Empirical distribution of the total attained service (GPU-seconds) of completed jobs, kept as a bounded,
 * sorted, deterministic reservoir sample (Vitter's algorithm R driven by a hash of {@code seed} and the observation
 * count, so the same observations in the same order always give the same sample). Immutable: {@link #record}
 * returns a new value. Used by {@code tiresias-gittins} to compute 2D-Gittins indices. It also keeps each tenant's
 * most recent completed jobs ({@link TenantHistory}), which {@code quanta.index-by-tenant} ranks by.
 */
public final class ServiceDistribution extends HeldService {

    /** Version 1: the samples only; version 2 adds the tenants' history. Both are read. */
    private static final int FORMAT_VERSION = 2;

    private final int capacity;
    private final long seed;
    private final long observed;
    private final double[] sorted;
    private final TenantHistory tenants;

    private ServiceDistribution(int capacity, long seed, long observed, double[] sorted) {
        this(capacity, seed, observed, sorted, TenantHistory.empty());
    }

    private ServiceDistribution(int capacity, long seed, long observed, double[] sorted, TenantHistory tenants) {
        super(sorted, null);
        if (capacity < 1) {
            throw new IllegalArgumentException("service distribution capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.seed = seed;
        this.observed = observed;
        this.sorted = sorted;
        this.tenants = tenants;
    }

    /** An empty distribution that keeps at most {@code capacity} samples. */
    public static ServiceDistribution empty(int capacity, long seed) {
        return new ServiceDistribution(capacity, seed, 0, new double[0]);
    }

    /** A distribution built by recording {@code values} in order, e.g. a prior seeded from config. */
    public static ServiceDistribution of(int capacity, long seed, double... values) {
        ServiceDistribution d = empty(capacity, seed);
        for (double v : values) {
            d = d.record(v);
        }
        return d;
    }

    /** The distribution of exactly these samples (at least one; a tenant's recent jobs, {@link TenantHistory}). */
    static ServiceDistribution ofSamples(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new ServiceDistribution(sorted.length, 0, sorted.length, sorted);
    }

    /**
     * Returns a distribution that also reflects one completed job of {@code tenant} with the given total attained
     * service, in the samples and in the tenant's history.
     */
    public ServiceDistribution record(String tenant, double gpuSeconds) {
        checkService(gpuSeconds);
        return record(gpuSeconds, tenants.record(tenant, gpuSeconds));
    }

    /** Returns a distribution that also reflects one completed job with the given total attained service. */
    public ServiceDistribution record(double gpuSeconds) {
        checkService(gpuSeconds);
        return record(gpuSeconds, tenants);
    }

    private static void checkService(double gpuSeconds) {
        if (Double.isNaN(gpuSeconds) || gpuSeconds < 0 || Double.isInfinite(gpuSeconds)) {
            throw new IllegalArgumentException("attained service must be finite and >= 0, got " + gpuSeconds);
        }
    }

    private ServiceDistribution record(double gpuSeconds, TenantHistory tenants) {
        long n = observed + 1;
        if (sorted.length < capacity) {
            return new ServiceDistribution(capacity, seed, n, insert(sorted, gpuSeconds), tenants);
        }
        long slot = Math.floorMod(mix(seed ^ (n * 0x9E3779B97F4A7C15L)), n);
        if (slot >= capacity) {
            return new ServiceDistribution(capacity, seed, n, sorted, tenants);
        }
        double[] without = new double[sorted.length - 1];
        System.arraycopy(sorted, 0, without, 0, (int) slot);
        System.arraycopy(sorted, (int) slot + 1, without, (int) slot, sorted.length - (int) slot - 1);
        return new ServiceDistribution(capacity, seed, n, insert(without, gpuSeconds), tenants);
    }

    /** Each tenant's most recent completed jobs. */
    public TenantHistory tenants() {
        return tenants;
    }

    /**
     * The empirical {@code q}-quantile of the held samples: the smallest sample with at least a share {@code q} of the
     * samples at or below it.
     *
     * @throws IllegalStateException when no sample is held
     */
    @Override
    public double quantile(double q) {
        ServiceEstimate.checkQuantile(q);
        if (sorted.length == 0) {
            throw new IllegalStateException("no completed job recorded yet");
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }

    /** Number of samples currently held (at most the capacity). */
    @Override
    public int size() {
        return sorted.length;
    }

    /** Number of completed jobs ever recorded. */
    public long observed() {
        return observed;
    }

    public int capacity() {
        return capacity;
    }

    public long seed() {
        return seed;
    }

    /** The held samples, sorted ascending (a copy). */
    public double[] samples() {
        return sorted.clone();
    }

    /** Compact binary encoding (version, capacity, seed, observed, samples, tenants' history) for a state store. */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + 8 * sorted.length);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            out.writeInt(capacity);
            out.writeLong(seed);
            out.writeLong(observed);
            out.writeInt(sorted.length);
            for (double v : sorted) {
                out.writeDouble(v);
            }
            tenants.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Decodes {@link #toBytes()}; throws IllegalArgumentException on malformed input. */
    public static ServiceDistribution fromBytes(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int version = in.readUnsignedByte();
            if (version != 1 && version != FORMAT_VERSION) {
                throw new IllegalArgumentException("unknown service distribution format version " + version);
            }
            int capacity = in.readInt();
            long seed = in.readLong();
            long observed = in.readLong();
            int n = in.readInt();
            if (n < 0 || n > capacity) {
                throw new IllegalArgumentException("service distribution holds " + n + " samples, capacity " + capacity);
            }
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = in.readDouble();
            }
            Arrays.sort(values);
            TenantHistory tenants = version == 1 ? TenantHistory.empty() : TenantHistory.read(in);
            if (in.read() != -1) {
                throw new IllegalArgumentException("malformed service distribution: bytes after the end");
            }
            return new ServiceDistribution(capacity, seed, observed, values, tenants);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed service distribution: " + e.getMessage(), e);
        }
    }

    private static double[] insert(double[] values, double v) {
        int at = Arrays.binarySearch(values, v);
        int pos = at >= 0 ? at : -at - 1;
        double[] out = new double[values.length + 1];
        System.arraycopy(values, 0, out, 0, pos);
        out[pos] = v;
        System.arraycopy(values, pos, out, pos + 1, values.length - pos);
        return out;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServiceDistribution d && d.capacity == capacity && d.seed == seed
                && d.observed == observed && Arrays.equals(d.sorted, sorted) && d.tenants.equals(tenants);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sorted) * 31 + Long.hashCode(observed);
    }

    @Override
    public String toString() {
        return "ServiceDistribution[size=" + sorted.length + ", observed=" + observed + ", capacity=" + capacity
                + ", tenants=" + tenants.tenants() + "]";
    }
}
