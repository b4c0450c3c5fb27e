package io.quanta.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** A Markdown table, printed as it is (each benchmark prints one complete table by itself). */
final class Table {

    private final String title;
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Table(String title, String... header) {
        this.title = title;
        this.header = List.of(header);
    }

    Table row(Object... cells) {
        rows.add(Arrays.stream(cells).map(String::valueOf).toList());
        return this;
    }

    Table note(String text) {
        notes.add(text);
        return this;
    }

    void print(PrintStream out) {
        out.println();
        out.println("### " + title);
        out.println();
        out.println("| " + String.join(" | ", header) + " |");
        out.println("|" + "---|".repeat(header.size()));
        rows.forEach(r -> out.println("| " + String.join(" | ", r) + " |"));
        out.println();
        notes.forEach(n -> out.println(n));
        out.flush();
    }

    static String ms(double millis) {
        return Double.isNaN(millis) ? "n/a" : String.format(Locale.ROOT, "%.0f ms", millis);
    }

    static String num(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.0f", value);
    }

    static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
