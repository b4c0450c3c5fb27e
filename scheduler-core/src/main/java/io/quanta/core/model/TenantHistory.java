package io.quanta.core.model;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The total service (GPU-seconds) of each tenant's most recently completed jobs: a team tends to submit runs of similar
 * jobs (sweeps, the same model retrained), so its last jobs say more about its next one than the whole cell's do. On
 * the Philly windows of the evaluation suite, the median of a virtual cluster's last completed jobs correlates with a
 * new job's log duration at 0.07 to 0.82 (median about 0.57), where the cell's distribution alone says nothing about
 * which new job is short.
 * <p>Bounded against hostile input: at most {@link #MAX_TENANTS} tenants (those whose jobs completed most recently;
 * the tenant whose last completion is oldest is forgotten first), at most {@link #SAMPLES} values each (the oldest
 * dropped first), and tenants whose name is longer than {@link #MAX_TENANT_CHARS} are not kept at all (their jobs are
 * ranked by the cell's distribution). Immutable: {@link #record} returns a new value. Deterministic: the same
 * completions in the same order give the same history.
 */
public final class TenantHistory {

    /** Most tenants kept. */
    public static final int MAX_TENANTS = 128;
    /** Most recent completed jobs kept per tenant. */
    public static final int SAMPLES = 32;
    /** Longest tenant name kept, in chars. */
    public static final int MAX_TENANT_CHARS = 200;

    private static final TenantHistory EMPTY = new TenantHistory(new LinkedHashMap<>());

    /**
     * One tenant's recent jobs: the values oldest first (never changed once built) and their distribution, built once
     * here when a job completes rather than in every scheduling pass that ranks the tenant's jobs.
     */
    private record Recent(double[] values, ServiceDistribution distribution) {
        Recent(double[] values) {
            this(values, ServiceDistribution.ofSamples(values));
        }
    }

    /** Least recently completed tenant first. */
    private final LinkedHashMap<String, Recent> recent;

    private TenantHistory(LinkedHashMap<String, Recent> recent) {
        this.recent = recent;
    }

    /** No tenant's history. */
    public static TenantHistory empty() {
        return EMPTY;
    }

    /**
     * Returns a history that also holds one completed job of {@code tenant} with this total service.
     *
     * @throws IllegalArgumentException when the service is not finite and >= 0
     */
    public TenantHistory record(String tenant, double gpuSeconds) {
        checkValue(gpuSeconds);
        if (tenant == null || tenant.length() > MAX_TENANT_CHARS) {
            return this;
        }
        Recent kept = recent.get(tenant);
        double[] before = kept == null ? null : kept.values();
        double[] after;
        if (before == null) {
            after = new double[] {gpuSeconds};
        } else if (before.length < SAMPLES) {
            after = Arrays.copyOf(before, before.length + 1);
            after[before.length] = gpuSeconds;
        } else {
            after = new double[SAMPLES];
            System.arraycopy(before, 1, after, 0, SAMPLES - 1);
            after[SAMPLES - 1] = gpuSeconds;
        }
        LinkedHashMap<String, Recent> copy = new LinkedHashMap<>(recent);
        copy.remove(tenant);
        copy.put(tenant, new Recent(after));
        if (copy.size() > MAX_TENANTS) {
            copy.remove(copy.keySet().iterator().next());
        }
        return new TenantHistory(copy);
    }

    /** The tenant's recent completed jobs' service, oldest first (a copy; empty when none is kept). */
    public double[] samples(String tenant) {
        Recent kept = recent.get(tenant);
        return kept == null ? new double[0] : kept.values().clone();
    }

    /** The distribution of the tenant's recent completed jobs once it has at least {@code minSamples}, else empty. */
    public Optional<ServiceDistribution> distribution(String tenant, int minSamples) {
        Recent kept = recent.get(tenant);
        return kept != null && kept.values().length >= minSamples ? Optional.of(kept.distribution()) : Optional.empty();
    }

    /** Number of tenants kept. */
    public int tenants() {
        return recent.size();
    }

    /** Writes the history (tenant count, then each tenant's name, value count and values) in completion order. */
    void write(DataOutputStream out) throws IOException {
        out.writeInt(recent.size());
        for (Map.Entry<String, Recent> e : recent.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeInt(e.getValue().values().length);
            for (double v : e.getValue().values()) {
                out.writeDouble(v);
            }
        }
    }

    /** Reads {@link #write}; throws IllegalArgumentException when the counts break the bounds. */
    static TenantHistory read(DataInputStream in) throws IOException {
        int tenants = in.readInt();
        if (tenants < 0 || tenants > MAX_TENANTS) {
            throw new IllegalArgumentException("tenant history holds " + tenants + " tenants, at most " + MAX_TENANTS);
        }
        LinkedHashMap<String, Recent> recent = new LinkedHashMap<>();
        for (int t = 0; t < tenants; t++) {
            String tenant = in.readUTF();
            int n = in.readInt();
            if (n < 1 || n > SAMPLES || tenant.length() > MAX_TENANT_CHARS || recent.containsKey(tenant)) {
                throw new IllegalArgumentException("malformed tenant history entry for a tenant of "
                        + tenant.length() + " chars with " + n + " values");
            }
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = in.readDouble();
                checkValue(values[i]);
            }
            recent.put(tenant, new Recent(values));
        }
        return tenants == 0 ? EMPTY : new TenantHistory(recent);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TenantHistory h) || h.recent.size() != recent.size()) {
            return false;
        }
        var mine = recent.entrySet().iterator();
        var theirs = h.recent.entrySet().iterator();
        while (mine.hasNext()) {
            var a = mine.next();
            var b = theirs.next();
            if (!a.getKey().equals(b.getKey()) || !Arrays.equals(a.getValue().values(), b.getValue().values())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (Map.Entry<String, Recent> e : recent.entrySet()) {
            h = 31 * h + e.getKey().hashCode() * 17 + Arrays.hashCode(e.getValue().values());
        }
        return h;
    }

    private static void checkValue(double gpuSeconds) {
        if (!(gpuSeconds >= 0) || Double.isInfinite(gpuSeconds)) {
            throw new IllegalArgumentException("tenant history value must be finite and >= 0, got " + gpuSeconds);
        }
    }

    @Override
    public String toString() {
        return "TenantHistory[tenants=" + recent.size() + "]";
    }
}
