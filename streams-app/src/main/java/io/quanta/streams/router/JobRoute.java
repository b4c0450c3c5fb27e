package io.quanta.streams.router;

/**
 * Where a submitted job lives: its cell, and the fingerprint of its submission (everything but the submission time)
 * that tells an idempotent re-submission from a conflicting one.
 */
public record JobRoute(String cellId, String fingerprint) {
}
