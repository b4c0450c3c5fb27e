package io.quanta.cli.acl;

import io.quanta.topics.admin.AclPrincipals;
import io.quanta.topics.admin.QuantaRole;
import io.quanta.topics.config.ConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.SecurityUtils;

/**
 * The {@code acl.*} settings of {@code quanta acls}: the Kafka principals of each role, and the consumer-group prefix
 * of auditors. Flags of {@code quanta acls} ({@code --scheduler User:scheduler ...}) override them.
 */
public final class AclConfigSection implements ConfigSection {

    public static final String AUDITOR_GROUP_PREFIX = "acl.auditor.group.prefix";

    /** The key listing the principals of {@code role}, e.g. {@code acl.node.principals}. */
    public static String principalsKey(QuantaRole role) {
        return "acl." + role.label() + ".principals";
    }

    /** The principals of every role in {@code config} (tenant entries without their tenant names). */
    public static AclPrincipals principals(QuantaConfig config) {
        Map<QuantaRole, List<String>> out = new EnumMap<>(QuantaRole.class);
        for (QuantaRole role : QuantaRole.values()) {
            out.put(role, role == QuantaRole.TENANT ? List.copyOf(tenants(config).keySet()) : entries(config, role));
        }
        return AclPrincipals.of(out);
    }

    /**
     * The tenant of each tenant principal: an entry {@code TENANT=Type:name} names it, a bare {@code Type:name} is
     * the tenant {@code name}. What the per-tenant submissions topics ({@code scheduler.tenant.topics}) are named
     * after.
     */
    public static Map<String, String> tenants(QuantaConfig config) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String entry : entries(config, QuantaRole.TENANT)) {
            int eq = entry.indexOf('=');
            String principal = eq < 0 ? entry : entry.substring(eq + 1).trim();
            KafkaPrincipal parsed;
            try {
                parsed = SecurityUtils.parseKafkaPrincipal(principal);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("tenant principal '" + principal + "' is not Type:name (e.g. "
                        + "User:vision, or vision=User:tenant-vision)");
            }
            out.put(parsed.toString(), eq < 0 ? parsed.getName() : entry.substring(0, eq).trim());
        }
        return out;
    }

    private static List<String> entries(QuantaConfig config, QuantaRole role) {
        List<String> given = config.getList(principalsKey(role));
        return given == null ? List.of() : given.stream().map(String::trim).filter(e -> !e.isEmpty()).toList();
    }

    @Override
    public String name() {
        return "acl";
    }

    @Override
    public String description() {
        return "Kafka principals of the roles whose ACLs `quanta acls print` and `quanta acls apply` manage "
                + "(Type:name, e.g. User:scheduler; see docs/security.md).";
    }

    @Override
    public Set<String> ownedPrefixes() {
        return Set.of("acl.");
    }

    @Override
    public ConfigDef definition() {
        ConfigDef def = new ConfigDef();
        def.define(principalsKey(QuantaRole.SCHEDULER), Type.LIST, null, Importance.MEDIUM,
                "Principals of the scheduler (Kafka Streams): the only writers of the inbox, commands, decisions, "
                        + "statuses and dead letters; its internal topics, group and transactional ids are named "
                        + "after scheduler.application.id.");
        def.define(principalsKey(QuantaRole.NODE), Type.LIST, null, Importance.MEDIUM,
                "Principals of the node connectors (one per node is best): write heartbeats, events and telemetry, "
                        + "read commands.");
        def.define(principalsKey(QuantaRole.TENANT), Type.LIST, null, Importance.MEDIUM,
                "Principals of the submitters: write submissions and cancellations, read job statuses. An entry "
                        + "TENANT=Type:name names the principal's tenant (its own submissions topic with "
                        + "scheduler.tenant.topics); a bare Type:name is the tenant 'name'.");
        def.define(principalsKey(QuantaRole.AUDITOR), Type.LIST, null, Importance.MEDIUM,
                "Principals of auditors: read every Quanta topic and the scheduler's internal topics, nothing else.");
        def.define(AUDITOR_GROUP_PREFIX, Type.STRING, "quanta-audit", new ConfigDef.NonEmptyString(),
                Importance.LOW, "Auditors may use consumer groups whose id starts with this prefix.");
        return def;
    }
}
