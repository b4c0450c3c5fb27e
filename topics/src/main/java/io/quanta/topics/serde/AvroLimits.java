package io.quanta.topics.serde;

/**
 * Bounds what one Avro record may ask the decoder to allocate. Avro reads a length prefix and allocates that much
 * before it finds the bytes missing, so a 30-byte record announcing a 2 GB string would cost 2 GB of heap. Avro's
 * own limits ({@code org.apache.avro.limits.*} system properties, read once when Avro's {@code SystemLimitException}
 * is first loaded) are set here to {@link #MAX_LENGTH} for strings and bytes and {@link #MAX_ITEMS} for collection
 * items, unless the JVM was started with other values. No Quanta record comes near them: the broker refuses values
 * over 1 MB, and the scheduler refuses input values over {@code scheduler.input.max.bytes} before decoding.
 */
public final class AvroLimits {

    /** Avro's system property for the longest string. */
    public static final String STRING_PROPERTY = "org.apache.avro.limits.string.maxLength";
    /** Avro's system property for the longest bytes value. */
    public static final String BYTES_PROPERTY = "org.apache.avro.limits.bytes.maxLength";
    /** Avro's system property for the most items in one array or map. */
    public static final String ITEMS_PROPERTY = "org.apache.avro.limits.collectionItems.maxLength";
    /** Longest string or bytes value: the largest Kafka record by default. */
    public static final int MAX_LENGTH = 1024 * 1024;
    /** Most items of one array or map. */
    public static final int MAX_ITEMS = 100_000;

    private AvroLimits() {
    }

    /** Sets the limits unless already set; must run before the first Avro decoder reads a length. Idempotent. */
    public static void install() {
        setIfAbsent(STRING_PROPERTY, MAX_LENGTH);
        setIfAbsent(BYTES_PROPERTY, MAX_LENGTH);
        setIfAbsent(ITEMS_PROPERTY, MAX_ITEMS);
    }

    private static void setIfAbsent(String property, int value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, Integer.toString(value));
        }
    }
}
