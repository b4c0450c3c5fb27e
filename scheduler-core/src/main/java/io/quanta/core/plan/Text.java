package io.quanta.core.plan;

import java.time.Instant;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

/** Locale-independent number rendering for reasons and details, and stream-time arithmetic. Deterministic. */
public final class Text {

    /** Decimal tails by hundredths: {@code ""}, {@code ".01"} ... {@code ".1"}, {@code ".11"} ... {@code ".99"}. */
    private static final String[] FRACTIONS = new String[100];

    static {
        FRACTIONS[0] = "";
        for (int cents = 1; cents < 100; cents++) {
            FRACTIONS[cents] = "." + cents / 10 + (cents % 10 != 0 ? Integer.toString(cents % 10) : "");
        }
    }

    private Text() {
    }

    /** A number as an integer when it is one, else with at most 2 decimals: {@code 3250}, {@code 0.83}. */
    public static String num(double v) {
        if (Double.isNaN(v)) {
            return "unknown";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        if (Math.abs(v) >= 1e15) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        long hundredths = Math.round(Math.abs(v) * 100);
        String sign = v < 0 && hundredths != 0 ? "-" : "";
        return sign + hundredths / 100 + FRACTIONS[(int) (hundredths % 100)];
    }

    /** A sorted details map from alternating keys and values. */
    public static SortedMap<String, String> details(String... keyValues) {
        SortedMap<String, String> map = new TreeMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    /** {@code now + seconds}, rounded up to a whole millisecond, so a pass at that time sees the crossing done. */
    public static Instant after(Instant now, double seconds) {
        long nanos = (long) Math.ceil(seconds * 1e9);
        Instant t = now.plusNanos(Math.max(nanos, 1));
        long millis = t.toEpochMilli();
        Instant floor = Instant.ofEpochMilli(millis);
        return floor.equals(t) ? t : Instant.ofEpochMilli(millis + 1);
    }
}
