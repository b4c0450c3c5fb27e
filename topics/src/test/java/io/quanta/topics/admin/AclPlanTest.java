package io.quanta.topics.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import java.net.InetAddress;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.SecurityUtils;
import org.apache.kafka.metadata.authorizer.StandardAcl;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.junit.jupiter.api.Test;

/**
 * The ACL set of the roles, judged by Kafka's own {@link StandardAuthorizer} (what a broker with the plan applied would
 * decide): who may write and read each topic, and the scheduler's internal topics, group and transactional ids.
 */
class AclPlanTest {

    private static final String SCHEDULER = "User:scheduler";
    private static final String NODE_1 = "User:node-1";
    private static final String NODE_2 = "User:node-2";
    private static final String TENANT = "User:tenant-vision";
    private static final String AUDITOR = "User:auditor";
    private static final String OUTSIDER = "User:outsider";
    private static final List<String> EVERYONE = List.of(SCHEDULER, NODE_1, NODE_2, TENANT, AUDITOR, OUTSIDER);

    private final TopicCatalogue topics = TopicCatalogue.forAdministration(config(Map.of()));
    private final AclPlan plan = AclPlan.of(topics, "quanta-scheduler", "quanta-audit", principals());
    private final StandardAuthorizer authorizer = authorizer(plan.bindings());

    private static AclPrincipals principals() {
        Map<QuantaRole, List<String>> p = new EnumMap<>(QuantaRole.class);
        p.put(QuantaRole.SCHEDULER, List.of(SCHEDULER));
        p.put(QuantaRole.NODE, List.of(NODE_1, NODE_2));
        p.put(QuantaRole.TENANT, List.of(TENANT));
        p.put(QuantaRole.AUDITOR, List.of(AUDITOR));
        return AclPrincipals.of(p);
    }

    @Test
    void shouldLetEachTopicBeWrittenOnlyByItsRole() {
        Map<QuantaTopic, Set<String>> expected = new EnumMap<>(QuantaTopic.class);
        expected.put(QuantaTopic.SUBMISSIONS, Set.of(TENANT));
        expected.put(QuantaTopic.HEARTBEATS, Set.of(NODE_1, NODE_2));
        expected.put(QuantaTopic.TELEMETRY, Set.of(NODE_1, NODE_2));
        expected.put(QuantaTopic.EVENTS, Set.of(NODE_1, NODE_2));
        expected.put(QuantaTopic.INBOX, Set.of(SCHEDULER));
        expected.put(QuantaTopic.COMMANDS, Set.of(SCHEDULER));
        expected.put(QuantaTopic.DECISIONS, Set.of(SCHEDULER));
        expected.put(QuantaTopic.STATUS, Set.of(SCHEDULER));
        expected.put(QuantaTopic.DEADLETTER, Set.of(SCHEDULER));

        for (QuantaTopic topic : QuantaTopic.values()) {
            assertThat(allowed(AclOperation.WRITE, topic(topic))).as("who may write " + topic).isEqualTo(
                    new TreeSet<>(expected.getOrDefault(topic, Set.of()))); // any other topic: the admin only
        }
    }

    @Test
    void shouldLetEachTopicBeReadOnlyByItsConsumersAndTheAuditor() {
        Map<QuantaTopic, Set<String>> expected = new EnumMap<>(QuantaTopic.class);
        expected.put(QuantaTopic.SUBMISSIONS, Set.of(SCHEDULER, AUDITOR));
        expected.put(QuantaTopic.HEARTBEATS, Set.of(SCHEDULER, AUDITOR));
        expected.put(QuantaTopic.TELEMETRY, Set.of(SCHEDULER, AUDITOR));
        expected.put(QuantaTopic.EVENTS, Set.of(SCHEDULER, AUDITOR));
        expected.put(QuantaTopic.INBOX, Set.of(SCHEDULER, AUDITOR));
        expected.put(QuantaTopic.COMMANDS, Set.of(NODE_1, NODE_2, AUDITOR));
        expected.put(QuantaTopic.DECISIONS, Set.of(SCHEDULER, AUDITOR));
        expected.put(QuantaTopic.STATUS, Set.of(SCHEDULER, TENANT, AUDITOR));
        expected.put(QuantaTopic.DEADLETTER, Set.of(SCHEDULER, AUDITOR));

        for (QuantaTopic topic : QuantaTopic.values()) {
            assertThat(allowed(AclOperation.READ, topic(topic))).as("who may read " + topic).isEqualTo(
                    new TreeSet<>(expected.getOrDefault(topic, Set.of(SCHEDULER, AUDITOR))));
        }
    }

    @Test
    void shouldGiveSchedulerItsInternalTopicsGroupAndTransactionalIdsOnly() {
        ResourcePattern changelog = new ResourcePattern(ResourceType.TOPIC,
                "quanta-scheduler-scheduler-jobs-changelog", PatternType.LITERAL);
        ResourcePattern txn = new ResourcePattern(ResourceType.TRANSACTIONAL_ID,
                "quanta-scheduler-" + Uuid.randomUuid() + "-1", PatternType.LITERAL);
        ResourcePattern group = new ResourcePattern(ResourceType.GROUP, "quanta-scheduler", PatternType.LITERAL);

        assertThat(allowed(AclOperation.CREATE, changelog)).containsExactly(SCHEDULER);
        assertThat(allowed(AclOperation.WRITE, changelog)).containsExactly(SCHEDULER);
        assertThat(allowed(AclOperation.READ, changelog)).containsExactlyInAnyOrder(SCHEDULER, AUDITOR);
        assertThat(allowed(AclOperation.WRITE, txn)).containsExactly(SCHEDULER);
        assertThat(allowed(AclOperation.READ, group)).containsExactly(SCHEDULER);
        assertThat(allowed(AclOperation.DESCRIBE, group)).containsExactlyInAnyOrder(SCHEDULER, AUDITOR);
        assertThat(allowed(AclOperation.CREATE, topic(QuantaTopic.COMMANDS))).isEmpty();
        assertThat(allowed(AclOperation.CREATE, new ResourcePattern(ResourceType.TOPIC, "quanta-schedulerx",
                PatternType.LITERAL))).isEmpty();
    }

    @Test
    void shouldLetAuditorUseOwnGroupsAndWriteNothing() {
        ResourcePattern own = new ResourcePattern(ResourceType.GROUP, "quanta-audit-weekly", PatternType.LITERAL);
        assertThat(allowed(AclOperation.READ, own)).containsExactly(AUDITOR);
        for (QuantaTopic topic : QuantaTopic.values()) {
            assertThat(decide(AUDITOR, AclOperation.WRITE, topic(topic))).isEqualTo(AuthorizationResult.DENIED);
            assertThat(decide(AUDITOR, AclOperation.DESCRIBE_CONFIGS, topic(topic)))
                    .isEqualTo(AuthorizationResult.ALLOWED);
        }
    }

    @Test
    void shouldGiveNoRightOnTheClusterAndNothingToOutsiders() {
        ResourcePattern cluster = new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL);
        for (AclOperation op : List.of(AclOperation.ALTER, AclOperation.CREATE, AclOperation.IDEMPOTENT_WRITE,
                AclOperation.ALTER_CONFIGS)) {
            assertThat(allowed(op, cluster)).as(op.toString()).isEmpty();
        }
        assertThat(plan.entries()).noneMatch(e -> e.principal().equals(OUTSIDER));
    }

    @Test
    void shouldNameConfiguredTopicsAndApplicationId() {
        TopicCatalogue renamed = TopicCatalogue.forAdministration(config(Map.of("topic.commands.name", "prod.cmds")));
        AclPlan other = AclPlan.of(renamed, "sched-b", "audit", principals());
        StandardAuthorizer judge = authorizer(other.bindings());

        assertThat(decide(judge, SCHEDULER, AclOperation.WRITE, new ResourcePattern(ResourceType.TOPIC, "prod.cmds",
                PatternType.LITERAL))).isEqualTo(AuthorizationResult.ALLOWED);
        assertThat(decide(judge, SCHEDULER, AclOperation.WRITE, topic(QuantaTopic.COMMANDS)))
                .isEqualTo(AuthorizationResult.DENIED);
        assertThat(decide(judge, SCHEDULER, AclOperation.READ, new ResourcePattern(ResourceType.GROUP, "sched-b",
                PatternType.LITERAL))).isEqualTo(AuthorizationResult.ALLOWED);
    }

    @Test
    void shouldLetEachTenantWriteOnlyItsOwnTopicWhenTenantTopicsAreOn() {
        String nlp = "User:tenant-nlp";
        Map<QuantaRole, List<String>> p = new EnumMap<>(QuantaRole.class);
        p.put(QuantaRole.SCHEDULER, List.of(SCHEDULER));
        p.put(QuantaRole.TENANT, List.of(TENANT, nlp));
        p.put(QuantaRole.AUDITOR, List.of(AUDITOR));
        AclPlan.TenantTopics tenantTopics = new AclPlan.TenantTopics("quanta.jobs.submissions.",
                Map.of(TENANT, "quanta.jobs.submissions.vision", nlp, "quanta.jobs.submissions.nlp"));
        AclPlan perTenant = AclPlan.of(topics, "quanta-scheduler", "quanta-audit", AclPrincipals.of(p),
                Optional.of(tenantTopics));
        StandardAuthorizer judge = authorizer(perTenant.bindings());
        ResourcePattern vision = new ResourcePattern(ResourceType.TOPIC, "quanta.jobs.submissions.vision",
                PatternType.LITERAL);

        assertThat(decide(judge, TENANT, AclOperation.WRITE, vision)).isEqualTo(AuthorizationResult.ALLOWED);
        assertThat(decide(judge, nlp, AclOperation.WRITE, vision)).isEqualTo(AuthorizationResult.DENIED);
        assertThat(decide(judge, TENANT, AclOperation.WRITE, topic(QuantaTopic.SUBMISSIONS)))
                .isEqualTo(AuthorizationResult.DENIED);
        assertThat(decide(judge, SCHEDULER, AclOperation.READ, vision)).isEqualTo(AuthorizationResult.ALLOWED);
        assertThat(decide(judge, AUDITOR, AclOperation.READ, vision)).isEqualTo(AuthorizationResult.ALLOWED);
        assertThat(decide(judge, SCHEDULER, AclOperation.WRITE, vision)).isEqualTo(AuthorizationResult.DENIED);

        AclBinding stolen = allow(vision, nlp, AclOperation.WRITE);
        List<AclBinding> existing = new java.util.ArrayList<>(perTenant.bindings());
        existing.add(stolen);
        assertThat(AclsApply.drift(perTenant, existing)).containsExactly(stolen);
        Map<QuantaRole, List<String>> unknown = Map.of(QuantaRole.TENANT, List.of("User:tenant-without-topic"));
        assertThatThrownBy(() -> AclPlan.of(topics, "quanta-scheduler", "quanta-audit", AclPrincipals.of(unknown),
                Optional.of(tenantTopics))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("User:tenant-without-topic has no submissions topic");
    }

    @Test
    void shouldRefusePrincipalsWithoutTypeAndWildcards() {
        assertThatThrownBy(() -> AclPrincipals.of(Map.of(QuantaRole.NODE, List.of("node-1"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node principal 'node-1'");
        assertThatThrownBy(() -> AclPrincipals.of(Map.of(QuantaRole.TENANT, List.of("User:*"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wildcard");
        assertThatThrownBy(() -> AclPlan.of(topics, "*", "a", principals()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("application id");
    }

    @Test
    void shouldReportGrantsOnQuantaResourcesBeyondThePlanAsDrift() {
        AclBinding wildcardWrite = allow(new ResourcePattern(ResourceType.TOPIC, "*", PatternType.LITERAL), OUTSIDER,
                AclOperation.WRITE);
        AclBinding prefixAll = allow(new ResourcePattern(ResourceType.TOPIC, "quanta.", PatternType.PREFIXED), NODE_1,
                AclOperation.ALL);
        AclBinding commandsByTenant = allow(topic(QuantaTopic.COMMANDS), TENANT, AclOperation.WRITE);
        AclBinding txnOfScheduler = allow(new ResourcePattern(ResourceType.TRANSACTIONAL_ID, "quanta-scheduler-x",
                PatternType.LITERAL), NODE_2, AclOperation.WRITE);
        AclBinding unrelated = allow(new ResourcePattern(ResourceType.TOPIC, "payments", PatternType.LITERAL),
                OUTSIDER, AclOperation.WRITE);
        AclBinding deny = new AclBinding(topic(QuantaTopic.COMMANDS), new AccessControlEntry(NODE_1, "*",
                AclOperation.WRITE, AclPermissionType.DENY));
        List<AclBinding> existing = new java.util.ArrayList<>(plan.bindings());
        existing.addAll(List.of(wildcardWrite, prefixAll, commandsByTenant, txnOfScheduler, unrelated, deny));

        assertThat(AclsApply.drift(plan, existing)).containsExactlyInAnyOrder(wildcardWrite, prefixAll,
                commandsByTenant, txnOfScheduler);
        assertThat(AclsApply.drift(plan, plan.bindings())).isEmpty();
    }

    private static AclBinding allow(ResourcePattern pattern, String principal, AclOperation op) {
        return new AclBinding(pattern, new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW));
    }

    private ResourcePattern topic(QuantaTopic topic) {
        return new ResourcePattern(ResourceType.TOPIC, topics.spec(topic).name(), PatternType.LITERAL);
    }

    private Set<String> allowed(AclOperation op, ResourcePattern resource) {
        Set<String> out = new TreeSet<>();
        for (String principal : EVERYONE) {
            if (decide(principal, op, resource) == AuthorizationResult.ALLOWED) {
                out.add(principal);
            }
        }
        return out;
    }

    private AuthorizationResult decide(String principal, AclOperation op, ResourcePattern resource) {
        return decide(authorizer, principal, op, resource);
    }

    private static AuthorizationResult decide(StandardAuthorizer judge, String principal, AclOperation op,
                                              ResourcePattern resource) {
        return judge.authorize(new Context(SecurityUtils.parseKafkaPrincipal(principal)),
                List.of(new Action(op, resource, 1, false, false))).get(0);
    }

    private static StandardAuthorizer authorizer(Set<AclBinding> bindings) {
        StandardAuthorizer authorizer = new StandardAuthorizer();
        authorizer.configure(Map.of(StandardAuthorizer.SUPER_USERS_CONFIG, "User:admin"));
        authorizer.withPluginMetrics(new PluginMetricsImpl(new Metrics(), Map.of()));
        Map<Uuid, StandardAcl> acls = new HashMap<>();
        bindings.forEach(b -> acls.put(Uuid.randomUuid(), StandardAcl.fromAclBinding(b)));
        authorizer.loadSnapshot(acls);
        authorizer.completeInitialLoad();
        return authorizer;
    }

    private static QuantaConfig config(Map<String, String> values) {
        return QuantaConfig.builder().sections(TopicCatalogue.configSections()).overrides(values).build();
    }

    /** A client request as the authorizer sees it: only the principal matters to ACLs on host {@code *}. */
    private record Context(KafkaPrincipal principal) implements AuthorizableRequestContext {
        @Override
        public String listenerName() {
            return "SECURE";
        }

        @Override
        public SecurityProtocol securityProtocol() {
            return SecurityProtocol.SASL_SSL;
        }

        @Override
        public InetAddress clientAddress() {
            return InetAddress.getLoopbackAddress();
        }

        @Override
        public int requestType() {
            return 0;
        }

        @Override
        public int requestVersion() {
            return 0;
        }

        @Override
        public String clientId() {
            return "test";
        }

        @Override
        public int correlationId() {
            return 0;
        }
    }
}
