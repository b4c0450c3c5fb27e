package io.quanta.topics;

/** A topic's {@code cleanup.policy}: delete old segments by retention, or keep the latest value per key. */
public enum CleanupPolicy {
    DELETE("delete"),
    COMPACT("compact");

    private final String configValue;

    CleanupPolicy(String configValue) {
        this.configValue = configValue;
    }

    /** The value of the broker's {@code cleanup.policy} topic config. */
    public String configValue() {
        return configValue;
    }
}
