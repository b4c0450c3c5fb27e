package io.quanta.streams.cell;

import io.quanta.core.config.PolicyConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Collections;
import java.util.HexFormat;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The configuration in force in a cell scheduler, as the audit log records it: policy name and every effective
 * parameter, the scheduler settings that influence decisions (pass interval, node timeout) and the software version,
 * plus a hash of their canonical rendering. A CONFIG decision is written whenever the hash differs from the one the
 * cell recorded last.
 *
 * @param policy  the policy name
 * @param entries every entry, sorted by key
 * @param hash    first 16 hex digits of the SHA-256 of the canonical rendering ({@code key=value\n} lines)
 */
public record ConfigFingerprint(String policy, SortedMap<String, String> entries, String hash) {

    /** Key of the software version entry. */
    public static final String VERSION_KEY = "software.version";
    /** Key of the finished-job retention entry (milliseconds; absent when ended jobs are kept forever). */
    public static final String RETENTION_KEY = "scheduler.finished.retention.ms";
    /** Key of the start timeout entry (milliseconds; absent when off). */
    public static final String START_TIMEOUT_KEY = "scheduler.start.timeout.ms";
    /** Key of the suspend timeout entry (milliseconds; absent when off). */
    public static final String SUSPEND_TIMEOUT_KEY = "scheduler.suspend.timeout.ms";

    public ConfigFingerprint {
        entries = Collections.unmodifiableSortedMap(new TreeMap<>(entries));
    }

    /** The fingerprint of a policy configuration and the scheduler settings that shape decisions. */
    public static ConfigFingerprint of(PolicyConfig policy, Duration passInterval, Duration nodeTimeout,
                                       Duration finishedRetention, String softwareVersion) {
        return of(policy, passInterval, nodeTimeout, finishedRetention, AttemptTimeouts.OFF, softwareVersion);
    }

    /** The fingerprint with attempt timeouts (recorded only when on, like the retention). */
    public static ConfigFingerprint of(PolicyConfig policy, Duration passInterval, Duration nodeTimeout,
                                       Duration finishedRetention, AttemptTimeouts timeouts, String softwareVersion) {
        SortedMap<String, String> entries = new TreeMap<>();
        policy.effective().forEach((k, v) -> entries.put("policy." + k, v));
        entries.put("policy", policy.policyName());
        entries.put("scheduler.pass.interval.ms", Long.toString(passInterval.toMillis()));
        entries.put("scheduler.node.timeout.ms", Long.toString(nodeTimeout.toMillis()));
        if (!finishedRetention.isZero()) {
            // only when on, so configurations recorded before the setting existed keep their hash
            entries.put(RETENTION_KEY, Long.toString(finishedRetention.toMillis()));
        }
        if (!timeouts.start().isZero()) {
            entries.put(START_TIMEOUT_KEY, Long.toString(timeouts.start().toMillis()));
        }
        if (!timeouts.suspend().isZero()) {
            entries.put(SUSPEND_TIMEOUT_KEY, Long.toString(timeouts.suspend().toMillis()));
        }
        entries.put(VERSION_KEY, softwareVersion);
        return new ConfigFingerprint(policy.policyName(), entries, hash(entries));
    }

    /** The canonical rendering that is hashed: one {@code key=value} line per entry, sorted. */
    public String canonical() {
        return render(entries);
    }

    private static String render(SortedMap<String, String> entries) {
        StringBuilder out = new StringBuilder();
        entries.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    private static String hash(SortedMap<String, String> entries) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(render(entries).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
