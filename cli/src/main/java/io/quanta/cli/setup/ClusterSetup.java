package io.quanta.cli.setup;

import io.quanta.cli.acl.AclConfigSection;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.router.TenantTopics;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.admin.AclApplyResult;
import io.quanta.topics.admin.AclPlan;
import io.quanta.topics.admin.AclPrincipals;
import io.quanta.topics.admin.AclsApply;
import io.quanta.topics.admin.SchemaApplyResult;
import io.quanta.topics.admin.SchemasApply;
import io.quanta.topics.admin.TopicApplyResult;
import io.quanta.topics.admin.TopicsApply;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * What a cluster needs before Quanta runs on it: the topics, their value schemas, each tenant's submissions topic and
 * the roles' ACLs, with the (admin) client settings of a configuration. All idempotent. The commands that print it
 * ({@code quanta topics apply}, {@code quanta topics add-tenant}, {@code quanta acls}) and the clusters that set
 * themselves up ({@code quanta local}, chaos, bench) call it.
 */
public final class ClusterSetup {

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(60);

    private ClusterSetup() {
    }

    /** Runs {@link TopicsApply} over the whole catalogue; idempotent. */
    public static List<TopicApplyResult> applyTopics(QuantaConfig config) {
        return applyTopics(config, TopicCatalogue.forAdministration(config).all());
    }

    /** Creates what is missing of {@code specs}; idempotent. */
    public static List<TopicApplyResult> applyTopics(QuantaConfig config,
                                                     Collection<? extends TopicSpec<?, ?>> specs) {
        try (Admin admin = Admin.create(config.kafkaClientProperties())) {
            return new TopicsApply(admin, ADMIN_TIMEOUT).apply(specs);
        }
    }

    /** Registers the value schema of every topic ({@link SchemasApply}); idempotent. */
    public static List<SchemaApplyResult> applySchemas(QuantaConfig config) {
        return new SchemasApply(AvroSerdeFactory.from(config).registry())
                .apply(TopicCatalogue.forAdministration(config));
    }

    /**
     * The submissions topic of each tenant, with the settings of the shared one.
     *
     * @throws IllegalArgumentException when a tenant name cannot be part of a topic name
     */
    public static List<TopicSpec<String, ?>> tenantTopics(QuantaConfig config, List<String> tenants) {
        TopicSpec<String, ?> shared = TopicCatalogue.forAdministration(config).submissions();
        TenantTopics topics = new TenantTopics(shared.name());
        return tenants.stream().<TopicSpec<String, ?>>map(t -> shared.named(topics.topicOf(t))).toList();
    }

    /**
     * The ACL plan for the principals, topic names and scheduler application id of {@code config}.
     *
     * @throws IllegalArgumentException when no role has a principal, or one is not {@code Type:name}
     */
    public static AclPlan aclPlan(QuantaConfig config) {
        AclPrincipals principals = AclConfigSection.principals(config);
        if (principals.isEmpty()) {
            throw new IllegalArgumentException("no principals given: name them with --scheduler, --node, --tenant, "
                    + "--auditor (e.g. --scheduler User:scheduler) or acl.<role>.principals");
        }
        TopicCatalogue topics = TopicCatalogue.forAdministration(config);
        Optional<AclPlan.TenantTopics> tenantTopics = Optional.empty();
        if (config.getBoolean(SchedulerConfigSection.TENANT_TOPICS)) {
            String shared = topics.submissions().name();
            TenantTopics names = new TenantTopics(shared);
            Map<String, String> topicOf = new LinkedHashMap<>();
            AclConfigSection.tenants(config).forEach((principal, tenant) -> topicOf.put(principal,
                    names.topicOf(tenant)));
            tenantTopics = Optional.of(new AclPlan.TenantTopics(shared + ".", topicOf));
        }
        return AclPlan.of(topics, config.getString(SchedulerConfigSection.APPLICATION_ID),
                config.getString(AclConfigSection.AUDITOR_GROUP_PREFIX), principals, tenantTopics);
    }

    /** Applies an ACL plan with the (admin) client settings of {@code config}. */
    public static List<AclApplyResult> applyAcls(QuantaConfig config, AclPlan plan) {
        try (Admin admin = Admin.create(config.kafkaClientProperties())) {
            return new AclsApply(admin, ADMIN_TIMEOUT).apply(plan);
        }
    }
}
