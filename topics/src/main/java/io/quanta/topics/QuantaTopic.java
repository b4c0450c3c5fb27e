package io.quanta.topics;

import java.time.Duration;
import org.apache.kafka.common.record.TimestampType;

/**
 * The closed set of Quanta topics, each with its short id (the {@code topic.<id>.*} config keys), default name,
 * default partition count, cleanup policy, default retention ({@link TopicSpec#INFINITE_RETENTION} for the logs
 * that must be kept: the cell inbox and the decision audit) and whether the broker stamps its records
 * ({@code LogAppendTime}: the inputs written by users and nodes, so that no producer's clock becomes the scheduler's
 * time; the scheduler's own outputs keep the time it gives them).
 */
public enum QuantaTopic {
    SUBMISSIONS("submissions", "quanta.jobs.submissions", 3, CleanupPolicy.DELETE, days(7), true),
    HEARTBEATS("heartbeats", "quanta.nodes.heartbeats", 3, CleanupPolicy.DELETE, days(7), true),
    TELEMETRY("telemetry", "quanta.jobs.telemetry", 3, CleanupPolicy.DELETE, days(7), true),
    EVENTS("events", "quanta.jobs.events", 3, CleanupPolicy.DELETE, days(7), true),
    INBOX("inbox", "quanta.cells.inbox", 3, CleanupPolicy.DELETE, TopicSpec.INFINITE_RETENTION, false),
    COMMANDS("commands", "quanta.nodes.commands", 3, CleanupPolicy.DELETE, days(7), false),
    DECISIONS("decisions", "quanta.scheduler.decisions", 3, CleanupPolicy.DELETE, TopicSpec.INFINITE_RETENTION, false),
    STATUS("status", "quanta.jobs.status", 3, CleanupPolicy.COMPACT, TopicSpec.INFINITE_RETENTION, false),
    DEADLETTER("deadletter", "quanta.deadletter", 1, CleanupPolicy.DELETE, days(30), false),
    ADMISSIONS("admissions", "quanta.nodes.admissions", 1, CleanupPolicy.COMPACT, TopicSpec.INFINITE_RETENTION, false);

    private final String id;
    private final String defaultName;
    private final int defaultPartitions;
    private final CleanupPolicy cleanupPolicy;
    private final long defaultRetentionMs;
    private final boolean brokerTimestamps;

    QuantaTopic(String id, String defaultName, int defaultPartitions, CleanupPolicy cleanupPolicy,
            long defaultRetentionMs, boolean brokerTimestamps) {
        this.brokerTimestamps = brokerTimestamps;
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

    /** The record timestamps of this topic: the broker's ({@code LogAppendTime}) or the producer's. */
    public TimestampType timestampType() {
        return brokerTimestamps ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
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
