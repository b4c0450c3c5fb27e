package io.quanta.chaos.observe;

/**
 * One record the driver read from a topic (committed records only).
 *
 * @param key        the record key (UTF-8 text; null when absent)
 * @param value      the decoded value
 * @param timestamp  the record timestamp
 * @param partition  its partition
 * @param offset     its offset
 * @param receivedAt wall-clock millis at which the driver's consumer returned it
 * @param <V>        the value type
 */
public record Seen<V>(String key, V value, long timestamp, int partition, long offset, long receivedAt) {
}
