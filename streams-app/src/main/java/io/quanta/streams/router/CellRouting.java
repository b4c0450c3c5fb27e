package io.quanta.streams.router;

import io.quanta.schemas.JobSubmitted;
import io.quanta.streams.store.CellKeys;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.TreeMap;

/**
 * The rule that sends a submitted job to a cell: the tenant's cell if a tenant rule names it, else the cell of the
 * GPU model it requires if a GPU-type rule names it, else the default cell. Immutable.
 */
public record CellRouting(SortedMap<String, String> tenantCells, SortedMap<String, String> gpuTypeCells,
                          String defaultCell) {

    public CellRouting {
        tenantCells = Collections.unmodifiableSortedMap(new TreeMap<>(tenantCells));
        gpuTypeCells = Collections.unmodifiableSortedMap(new TreeMap<>(gpuTypeCells));
        Objects.requireNonNull(defaultCell, "defaultCell");
        requireCellId(defaultCell);
        tenantCells.values().forEach(CellRouting::requireCellId);
        gpuTypeCells.values().forEach(CellRouting::requireCellId);
    }

    private static void requireCellId(String cellId) {
        if (!CellKeys.isValidCellId(cellId)) {
            throw new IllegalArgumentException("cell id '" + cellId
                    + "' must be 1 to 128 letters, digits, '.', '_' or '-'");
        }
    }

    /** Every job to {@code cell}. */
    public static CellRouting single(String cell) {
        return new CellRouting(new TreeMap<>(), new TreeMap<>(), cell);
    }

    /** Parses {@code key:value} items (already validated by the config section). */
    public static SortedMap<String, String> pairs(Iterable<String> items) {
        SortedMap<String, String> map = new TreeMap<>();
        for (String item : items) {
            int colon = item.indexOf(':');
            map.put(item.substring(0, colon).trim(), item.substring(colon + 1).trim());
        }
        return map;
    }

    /** The cell that schedules {@code job}. */
    public String cellFor(JobSubmitted job) {
        String byTenant = tenantCells.get(job.getTenant());
        if (byTenant != null) {
            return byTenant;
        }
        String byType = job.getGpuType() == null ? null : gpuTypeCells.get(job.getGpuType());
        return byType != null ? byType : defaultCell;
    }

    /** Every cell a job can be routed to, sorted. */
    public SortedSet<String> cells() {
        SortedSet<String> all = new TreeSet<>(tenantCells.values());
        all.addAll(gpuTypeCells.values());
        all.add(defaultCell);
        return all;
    }

    /** The rule as sorted {@code key=value} entries, for the audit's configuration record. */
    public Map<String, String> describe() {
        SortedMap<String, String> out = new TreeMap<>();
        out.put("routing.default.cell", defaultCell);
        tenantCells.forEach((t, c) -> out.put("routing.tenant." + t, c));
        gpuTypeCells.forEach((t, c) -> out.put("routing.gpu-type." + t, c));
        return out;
    }
}
