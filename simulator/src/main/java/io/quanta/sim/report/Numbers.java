package io.quanta.sim.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** Locale-independent number formatting shared by the writers: same value, same text, on every machine. */
public final class Numbers {

    private Numbers() {
    }

    /** Up to 3 decimals, trailing zeros dropped ({@code 12}, {@code 12.5}, {@code 12.345}); empty for NaN. */
    public static String plain(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "";
        }
        BigDecimal d = BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }

    /** Grouped integer part with {@code decimals} decimals ({@code 21,658}, {@code 0.85}); {@code -} for NaN. */
    public static String human(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "-";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    /** A JSON number ({@code null} for NaN). */
    public static String json(Number value) {
        if (value instanceof Double d) {
            return Double.isNaN(d) || Double.isInfinite(d) ? "null" : plain(d);
        }
        return String.valueOf(value);
    }

    /** A JSON string literal. */
    public static String jsonString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** A duration in seconds as {@code 3d04h}, {@code 5h12m}, {@code 7m03s} or {@code 12s}. */
    public static String duration(double seconds) {
        if (Double.isNaN(seconds)) {
            return "-";
        }
        long s = Math.round(seconds);
        if (s >= 86_400) {
            return String.format(Locale.ROOT, "%dd%02dh", s / 86_400, (s % 86_400) / 3_600);
        }
        if (s >= 3_600) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3_600, (s % 3_600) / 60);
        }
        if (s >= 60) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return s + "s";
    }
}
