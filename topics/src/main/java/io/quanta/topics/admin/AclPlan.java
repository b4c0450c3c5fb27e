package io.quanta.topics.admin;

import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The least-privilege ACLs of a Quanta cluster: for each principal of each {@link QuantaRole}, ALLOW bindings on the
 * topics of a {@link TopicCatalogue} (by their configured names) and on the scheduler's own resources, named after
 * its Kafka Streams application id. Everything not listed is denied by the authorizer; a topic no role writes is
 * written by the administrator (a super user) only. Operations that imply
 * {@code DESCRIBE} (READ, WRITE, DELETE) are not repeated with it.
 * <table>
 *   <caption>Rights by role</caption>
 *   <tr><th>role</th><th>may</th></tr>
 *   <tr><td>scheduler</td><td>read every topic but the commands (its inputs, and its outputs for the status API);
 *       write the inbox, commands, decisions, statuses, dead letters; create, read, write and delete topics prefixed
 *       {@code <application.id>-} (changelogs, repartition topics); use the consumer group {@code <application.id>}
 *       and the transactional ids prefixed {@code <application.id>-} (exactly-once v2)</td></tr>
 *   <tr><td>node</td><td>write heartbeats, events, telemetry; read commands (no group: it assigns its partition; its
 *       idempotent producer needs no transactional id, and WRITE on a topic is enough for its producer id)</td></tr>
 *   <tr><td>tenant</td><td>write submissions (and so cancellations): the shared topic, or with {@link TenantTopics}
 *       its own topic only (the scheduler and auditors then read every tenant topic); read statuses</td></tr>
 *   <tr><td>auditor</td><td>read and describe the configuration of every Quanta topic and the scheduler's internal
 *       topics; describe the scheduler's consumer group (its lag); use consumer groups prefixed with its own
 *       prefix</td></tr>
 * </table>
 */
public final class AclPlan {

    /** One ACL of the plan and the role it serves. */
    public record Entry(QuantaRole role, AclBinding binding) {
        public Entry {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(binding, "binding");
        }

        public String principal() {
            return binding.entry().principal();
        }
    }

    /**
     * Tenant authentication by topic ({@code scheduler.tenant.topics}): each tenant principal writes its own
     * submissions topic instead of the shared one, and the scheduler and auditors read every topic under the prefix.
     *
     * @param prefix what every tenant's topic name starts with ({@code <submissions topic>.})
     * @param topicByPrincipal the topic of each tenant principal
     */
    public record TenantTopics(String prefix, Map<String, String> topicByPrincipal) {
        public TenantTopics {
            requireName("tenant topic prefix", prefix);
            topicByPrincipal = Map.copyOf(topicByPrincipal);
            topicByPrincipal.forEach((principal, topic) -> {
                if (!topic.startsWith(prefix) || topic.length() == prefix.length()) {
                    throw new IllegalArgumentException("tenant topic '" + topic + "' of " + principal
                            + " does not start with '" + prefix + "'");
                }
            });
        }
    }

    private final List<Entry> entries;
    private final String applicationId;

    private AclPlan(List<Entry> entries, String applicationId) {
        this.entries = List.copyOf(entries);
        this.applicationId = applicationId;
    }

    /**
     * The plan for these principals.
     *
     * @param topics the topic names (from the configuration)
     * @param applicationId the scheduler's Kafka Streams application id ({@code scheduler.application.id})
     * @param auditorGroupPrefix prefix of the consumer groups auditors may use
     */
    public static AclPlan of(TopicCatalogue topics, String applicationId, String auditorGroupPrefix,
                             AclPrincipals principals) {
        return of(topics, applicationId, auditorGroupPrefix, principals, Optional.empty());
    }

    /**
     * The plan for these principals, with each tenant writing only its own submissions topic when
     * {@code tenantTopics} is given (then nobody but the administrator may write the shared one).
     *
     * @throws IllegalArgumentException when a tenant principal has no topic
     */
    public static AclPlan of(TopicCatalogue topics, String applicationId, String auditorGroupPrefix,
                             AclPrincipals principals, Optional<TenantTopics> tenantTopics) {
        requireName("application id", applicationId);
        requireName("auditor group prefix", auditorGroupPrefix);
        Builder b = new Builder(topics);
        for (String p : principals.of(QuantaRole.SCHEDULER)) {
            b.topics(QuantaRole.SCHEDULER, p, java.util.Arrays.stream(QuantaTopic.values())
                    .filter(t -> t != QuantaTopic.COMMANDS).toList(), AclOperation.READ);
            b.topics(QuantaRole.SCHEDULER, p, List.of(QuantaTopic.INBOX, QuantaTopic.COMMANDS, QuantaTopic.DECISIONS,
                    QuantaTopic.STATUS, QuantaTopic.DEADLETTER), AclOperation.WRITE);
            for (AclOperation op : List.of(AclOperation.CREATE, AclOperation.DELETE, AclOperation.DESCRIBE_CONFIGS,
                    AclOperation.READ, AclOperation.WRITE)) {
                b.add(QuantaRole.SCHEDULER, p, ResourceType.TOPIC, applicationId + "-", PatternType.PREFIXED, op);
            }
            b.add(QuantaRole.SCHEDULER, p, ResourceType.GROUP, applicationId, PatternType.LITERAL, AclOperation.READ);
            b.add(QuantaRole.SCHEDULER, p, ResourceType.TRANSACTIONAL_ID, applicationId + "-", PatternType.PREFIXED,
                    AclOperation.WRITE);
            tenantTopics.ifPresent(t -> b.add(QuantaRole.SCHEDULER, p, ResourceType.TOPIC, t.prefix(),
                    PatternType.PREFIXED, AclOperation.READ));
        }
        for (String p : principals.of(QuantaRole.NODE)) {
            b.topics(QuantaRole.NODE, p, List.of(QuantaTopic.HEARTBEATS, QuantaTopic.EVENTS, QuantaTopic.TELEMETRY),
                    AclOperation.WRITE);
            b.topics(QuantaRole.NODE, p, List.of(QuantaTopic.COMMANDS), AclOperation.READ);
        }
        for (String p : principals.of(QuantaRole.TENANT)) {
            if (tenantTopics.isPresent()) {
                String own = tenantTopics.get().topicByPrincipal().get(p);
                if (own == null) {
                    throw new IllegalArgumentException("tenant principal " + p + " has no submissions topic of its "
                            + "own (tenant topics are on)");
                }
                b.add(QuantaRole.TENANT, p, ResourceType.TOPIC, own, PatternType.LITERAL, AclOperation.WRITE);
            } else {
                b.topics(QuantaRole.TENANT, p, List.of(QuantaTopic.SUBMISSIONS), AclOperation.WRITE);
            }
            b.topics(QuantaRole.TENANT, p, List.of(QuantaTopic.STATUS), AclOperation.READ);
        }
        for (String p : principals.of(QuantaRole.AUDITOR)) {
            List<QuantaTopic> all = List.of(QuantaTopic.values());
            b.topics(QuantaRole.AUDITOR, p, all, AclOperation.READ);
            b.topics(QuantaRole.AUDITOR, p, all, AclOperation.DESCRIBE_CONFIGS);
            b.add(QuantaRole.AUDITOR, p, ResourceType.TOPIC, applicationId + "-", PatternType.PREFIXED,
                    AclOperation.READ);
            b.add(QuantaRole.AUDITOR, p, ResourceType.TOPIC, applicationId + "-", PatternType.PREFIXED,
                    AclOperation.DESCRIBE_CONFIGS);
            b.add(QuantaRole.AUDITOR, p, ResourceType.GROUP, applicationId, PatternType.LITERAL,
                    AclOperation.DESCRIBE);
            b.add(QuantaRole.AUDITOR, p, ResourceType.GROUP, auditorGroupPrefix, PatternType.PREFIXED,
                    AclOperation.READ);
            tenantTopics.ifPresent(t -> {
                b.add(QuantaRole.AUDITOR, p, ResourceType.TOPIC, t.prefix(), PatternType.PREFIXED, AclOperation.READ);
                b.add(QuantaRole.AUDITOR, p, ResourceType.TOPIC, t.prefix(), PatternType.PREFIXED,
                        AclOperation.DESCRIBE_CONFIGS);
            });
        }
        return new AclPlan(b.entries, applicationId);
    }

    private static void requireName(String what, String value) {
        if (value == null || value.isBlank() || value.contains("*")) {
            throw new IllegalArgumentException(what + " must be a non-empty name without '*', got '" + value + "'");
        }
    }

    /** Every ACL with its role, grouped by role then principal, in a stable order. */
    public List<Entry> entries() {
        return entries;
    }

    /** Every ACL binding of the plan. */
    public Set<AclBinding> bindings() {
        Set<AclBinding> out = new LinkedHashSet<>();
        entries.forEach(e -> out.add(e.binding()));
        return out;
    }

    /** The distinct resource patterns the plan grants on (what drift is looked for on). */
    public Set<ResourcePattern> resources() {
        Set<ResourcePattern> out = new LinkedHashSet<>();
        entries.forEach(e -> out.add(e.binding().pattern()));
        return out;
    }

    /** The scheduler's application id the plan was made for. */
    public String applicationId() {
        return applicationId;
    }

    private static final class Builder {
        private final TopicCatalogue topics;
        private final List<Entry> entries = new ArrayList<>();

        Builder(TopicCatalogue topics) {
            this.topics = topics;
        }

        void topics(QuantaRole role, String principal, List<QuantaTopic> which, AclOperation op) {
            for (QuantaTopic topic : which) {
                add(role, principal, ResourceType.TOPIC, topics.spec(topic).name(), PatternType.LITERAL, op);
            }
        }

        void add(QuantaRole role, String principal, ResourceType type, String name, PatternType patternType,
                 AclOperation op) {
            entries.add(new Entry(role, new AclBinding(new ResourcePattern(type, name, patternType),
                    new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW))));
        }
    }
}
