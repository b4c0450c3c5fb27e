package io.quanta.cli.acl;

import io.quanta.topics.admin.AclPrincipals;
import io.quanta.topics.admin.QuantaRole;
import io.quanta.topics.config.ConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

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

    /** The principals of every role in {@code config}. */
    public static AclPrincipals principals(QuantaConfig config) {
        Map<QuantaRole, List<String>> out = new EnumMap<>(QuantaRole.class);
        for (QuantaRole role : QuantaRole.values()) {
            List<String> given = config.getList(principalsKey(role));
            out.put(role, given == null ? List.of() : given);
        }
        return AclPrincipals.of(out);
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
                "Principals of the submitters: write submissions and cancellations, read job statuses.");
        def.define(principalsKey(QuantaRole.AUDITOR), Type.LIST, null, Importance.MEDIUM,
                "Principals of auditors: read every Quanta topic and the scheduler's internal topics, nothing else.");
        def.define(AUDITOR_GROUP_PREFIX, Type.STRING, "quanta-audit", new ConfigDef.NonEmptyString(),
                Importance.LOW, "Auditors may use consumer groups whose id starts with this prefix.");
        return def;
    }
}
