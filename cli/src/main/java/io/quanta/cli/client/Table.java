package io.quanta.cli.client;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table like {@code kubectl get}: upper-case headers, columns separated by three spaces, left-aligned,
 * no borders, the last column not padded.
 */
public final class Table {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(String... headers) {
        this.headers = List.of(headers);
    }

    /** Adds a row; {@code null} cells print as {@code -}; needs one cell per header. */
    public Table row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + headers.size()
                    + " columns");
        }
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(cell == null || cell.toString().isEmpty() ? "-" : cell.toString());
        }
        rows.add(row);
        return this;
    }

    /** Number of rows (headers excluded). */
    public int size() {
        return rows.size();
    }

    /** Prints headers and rows. */
    public void print(PrintWriter out) {
        out.print(render());
        out.flush();
    }

    /** The table as text, one line per row, each ending in a newline. */
    public String render() {
        int[] widths = new int[headers.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = headers.get(c).length();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder b = new StringBuilder();
        line(b, headers, widths);
        rows.forEach(r -> line(b, r, widths));
        return b.toString();
    }

    private static void line(StringBuilder b, List<String> cells, int[] widths) {
        for (int c = 0; c < cells.size(); c++) {
            String cell = cells.get(c);
            b.append(cell);
            if (c < cells.size() - 1) {
                b.append(" ".repeat(widths[c] - cell.length() + 3));
            }
        }
        b.append('\n');
    }
}
