package io.quanta.streams.router;

import java.nio.charset.StandardCharsets;

/**
 * Where a submitted job lives: its cell, and the fingerprint of its submission (everything but the submission time)
 * that tells an idempotent re-submission from a conflicting one. Stored as {@code cellId|fingerprint} (cell ids
 * contain no '|'), read for every telemetry record and job event, so it is cheap to decode.
 */
public record JobRoute(String cellId, String fingerprint) {

    public static byte[] encode(JobRoute route) {
        return (route.cellId + "|" + route.fingerprint).getBytes(StandardCharsets.UTF_8);
    }

    public static JobRoute decode(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        int bar = text.indexOf('|');
        if (bar < 0) {
            throw new IllegalArgumentException("malformed job route '" + text + "'");
        }
        return new JobRoute(text.substring(0, bar), text.substring(bar + 1));
    }
}
