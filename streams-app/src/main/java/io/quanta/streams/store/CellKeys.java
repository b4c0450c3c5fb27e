package io.quanta.streams.store;

import java.util.regex.Pattern;

/**
 * Keys of the cell-scoped stores: {@code <cellId>|<id>}. Several cells may share an inbox partition (and so a task's
 * stores), so every entry is keyed by its cell first; a prefix scan on {@link #prefix} reads one cell.
 */
public final class CellKeys {

    /** Separator between cell id and entry id. */
    public static final char SEPARATOR = '|';
    private static final Pattern CELL_ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    private CellKeys() {
    }

    /** True when {@code cellId} is a valid cell id (letters, digits, '.', '_', '-'; 1 to 128 characters). */
    public static boolean isValidCellId(String cellId) {
        return cellId != null && CELL_ID.matcher(cellId).matches();
    }

    public static String key(String cellId, String id) {
        return cellId + SEPARATOR + id;
    }

    /** The scan prefix of one cell. */
    public static String prefix(String cellId) {
        return cellId + SEPARATOR;
    }

    public static String cellOf(String key) {
        return key.substring(0, key.indexOf(SEPARATOR));
    }

    public static String idOf(String key) {
        return key.substring(key.indexOf(SEPARATOR) + 1);
    }
}
