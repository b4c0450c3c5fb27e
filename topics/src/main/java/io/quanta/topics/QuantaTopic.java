package io.quanta.topics;

import java.time.Duration;

/**
 * The closed set of Quanta topics, each with its short id (the {@code topic.<id>.*} config keys), default name,
 * default partition count, cleanup policy and default retention ({@link TopicSpec#INFINITE_RETENTION} for the logs
 * that must be kept: the cell inbox and the decision audit).
 */
public enum QuantaTopic {
    SUBMISSIONS("submissions", "quanta.jobs.submissions", 3, CleanupPolicy.DELETE, days(7)),
    HEARTBEATS("heartbeats", "quanta.nodes.heartbeats", 3, CleanupPolicy.DELETE, days(7)),
    TELEMETRY("telemetry", "quanta.jobs.telemetry", 3, CleanupPolicy.DELETE, days(7)),
    EVENTS("events", "quanta.jobs.events", 3, CleanupPolicy.DELETE, days(7)),
    INBOX("inbox", "quanta.cells.inbox", 3, CleanupPolicy.DELETE, TopicSpec.INFINITE_RETENTION),
    COMMANDS("commands", "quanta.nodes.commands", 3, CleanupPolicy.DELETE, days(7)),
    DECISIONS("decisions", "quanta.scheduler.decisions", 3, CleanupPolicy.DELETE, TopicSpec.INFINITE_RETENTION),
    STATUS("status", "quanta.jobs.status", 3, CleanupPolicy.COMPACT, TopicSpec.INFINITE_RETENTION),
    DEADLETTER("deadletter", "quanta.deadletter", 1, CleanupPolicy.DELETE, days(30));

    private final String id;
    private final String defaultName;
    private final int defaultPartitions;
    private final CleanupPolicy cleanupPolicy;
    private final long defaultRetentionMs;

    QuantaTopic(String id, String defaultName, int defaultPartitions, CleanupPolicy cleanupPolicy,
            long defaultRetentionMs) {
        this.id = id;
        this.defaultName = defaultName;
        this.defaultPartitions = defaultPartitions;
        this.cleanupPolicy = cleanupPolicy;
        this.defaultRetentionMs = defaultRetentionMs;
    }

    /** Short id used in config keys, e.g. {@code inbox}. */
    public String id() {
        return id;
    }

    public String defaultName() {
        return defaultName;
    }

    public int defaultPartitions() {
        return defaultPartitions;
    }

    public CleanupPolicy cleanupPolicy() {
        return cleanupPolicy;
    }

    public long defaultRetentionMs() {
        return defaultRetentionMs;
    }

    /** Config key of the topic name, e.g. {@code topic.inbox.name}. */
    public String nameKey() {
        return "topic." + id + ".name";
    }

    /** Config key of the partition count, e.g. {@code topic.inbox.partitions}. */
    public String partitionsKey() {
        return "topic." + id + ".partitions";
    }

    /** Config key of the retention, e.g. {@code topic.inbox.retention.ms}; only for delete-policy topics. */
    public String retentionKey() {
        return "topic." + id + ".retention.ms";
    }

    private static long days(int n) {
        return Duration.ofDays(n).toMillis();
    }
}
