package io.quanta.audit.replay;

import io.quanta.audit.log.RecordedDecision;
import io.quanta.core.config.InvalidPolicyConfigException;
import io.quanta.core.config.PolicyConfig;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.Safeguards;
import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.cell.AttemptTimeouts;
import io.quanta.streams.cell.ConfigFingerprint;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration in force as a CONFIG decision recorded it, rebuilt into the settings and fingerprint a fresh
 * cell-scheduler processor runs with. Rebuilding checks the record: its details must hash to its {@code configHash}.
 *
 * @param record      the CONFIG decision
 * @param settings    scheduler settings with the recorded policy, pass interval, node timeout and finished-job
 *                    retention
 * @param fingerprint the fingerprint (recorded software version included) the replayed processor records
 */
public record RecordedConfig(RecordedDecision record, SchedulerSettings settings, ConfigFingerprint fingerprint) {

    private static final String POLICY_PREFIX = "policy.";
    private static final String PASS_INTERVAL = "scheduler.pass.interval.ms";
    private static final String NODE_TIMEOUT = "scheduler.node.timeout.ms";

    /**
     * Rebuilds the configuration of a CONFIG decision.
     *
     * @throws ReplayException when the record is not a CONFIG decision, misses an entry, names an invalid policy
     *                         configuration, or its details do not hash to its {@code configHash}
     */
    public static RecordedConfig of(RecordedDecision record) {
        SchedulingDecision d = record.decision();
        String where = "CONFIG decision seq " + d.getSeq() + " of cell " + d.getCellId();
        if (d.getType() != DecisionType.CONFIG) {
            throw new IllegalArgumentException("decision seq " + d.getSeq() + " is " + d.getType() + ", not CONFIG");
        }
        Map<String, String> details = new TreeMap<>(d.getDetails());
        Map<String, String> params = new TreeMap<>();
        details.forEach((k, v) -> {
            if (k.startsWith(POLICY_PREFIX)) {
                params.put(k.substring(POLICY_PREFIX.length()), v);
            }
        });
        PolicyConfig policy;
        try {
            policy = PolicyConfig.of(params);
        } catch (InvalidPolicyConfigException e) {
            throw new ReplayException(where + " records a policy configuration this version cannot build: "
                    + e.getMessage(), e);
        }
        Duration pass = Duration.ofMillis(number(details, PASS_INTERVAL, where));
        Duration timeout = Duration.ofMillis(number(details, NODE_TIMEOUT, where));
        String version = details.get(ConfigFingerprint.VERSION_KEY);
        if (version == null) {
            throw new ReplayException(where + " lacks " + ConfigFingerprint.VERSION_KEY);
        }
        // absent in configurations recorded before retention existed, or with it off: ended jobs kept forever
        Duration retention = details.containsKey(ConfigFingerprint.RETENTION_KEY)
                ? Duration.ofMillis(number(details, ConfigFingerprint.RETENTION_KEY, where)) : Duration.ZERO;
        // absent in configurations recorded before attempt timeouts existed, or with them off
        AttemptTimeouts attempts = new AttemptTimeouts(optionalMillis(details, ConfigFingerprint.START_TIMEOUT_KEY,
                where), optionalMillis(details, ConfigFingerprint.SUSPEND_TIMEOUT_KEY, where));
        ConfigFingerprint fingerprint = ConfigFingerprint.of(policy, pass, timeout, retention, attempts, version);
        if (!fingerprint.hash().equals(d.getConfigHash())) {
            throw new ReplayException(where + " is inconsistent: its details rebuild to configuration hash "
                    + fingerprint.hash() + " but the record says " + d.getConfigHash() + " (recorded entries: "
                    + details.keySet() + "; rebuilt: " + fingerprint.entries().keySet() + ")");
        }
        SchedulerSettings settings = SchedulerSettings.defaults().withPolicy(policy).withPassInterval(pass)
                .withNodeTimeout(timeout).withFinishedRetention(retention);
        settings = settings.withSafeguards(new Safeguards(settings.safeguards().inputMaxBytes(),
                settings.safeguards().maxClockSkew(), attempts.start(), attempts.suspend()));
        return new RecordedConfig(record, settings, fingerprint);
    }

    /** The configuration hash. */
    public String hash() {
        return fingerprint.hash();
    }

    /** The software version that made the recorded decisions. */
    public String softwareVersion() {
        return fingerprint.entries().get(ConfigFingerprint.VERSION_KEY);
    }

    /** E.g. {@code tiresias-las (hash 1a2b..., version 0.1.0)}. */
    public String describe() {
        return fingerprint.policy() + " (hash " + hash() + ", version " + softwareVersion() + ")";
    }

    private static Duration optionalMillis(Map<String, String> details, String key, String where) {
        return details.containsKey(key) ? Duration.ofMillis(number(details, key, where)) : Duration.ZERO;
    }

    private static long number(Map<String, String> details, String key, String where) {
        String value = details.get(key);
        if (value == null) {
            throw new ReplayException(where + " lacks " + key);
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ReplayException(where + ": " + key + " is not a number: '" + value + "'", e);
        }
    }
}
