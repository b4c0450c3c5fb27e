package io.quanta.topics.admin;

/**
 * The roles of a secured Quanta cluster, each a set of Kafka principals with least-privilege ACLs ({@link AclPlan}).
 * The administrator who creates topics and applies these ACLs is not a role here: a super user of the cluster.
 */
public enum QuantaRole {
    /** The Kafka Streams scheduler: the only writer of the inbox, commands, decisions, statuses and dead letters. */
    SCHEDULER("scheduler"),
    /** A node connector: writes heartbeats, job events and telemetry; reads commands. */
    NODE("node"),
    /** A submitter: writes submissions and cancellations; reads job statuses ({@code quanta watch/status}). */
    TENANT("tenant"),
    /** Read-only on every Quanta topic and the scheduler's internal topics, with consumer groups of its own. */
    AUDITOR("auditor");

    private final String label;

    QuantaRole(String label) {
        this.label = label;
    }

    /** Lower-case name, as in {@code quanta acls --node}. */
    public String label() {
        return label;
    }
}
