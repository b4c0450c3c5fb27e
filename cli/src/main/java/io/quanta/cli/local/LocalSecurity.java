package io.quanta.cli.local;

import io.quanta.cli.acl.AclConfigSection;
import io.quanta.embedded.BrokerSecurity;
import io.quanta.topics.admin.AclPrincipals;
import io.quanta.topics.admin.QuantaRole;
import io.quanta.topics.config.QuantaConfig;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The identities of a {@code quanta local --secure} cluster: one SCRAM user per role instance ({@code admin},
 * {@code scheduler}, {@code auditor}, {@code node-<node id>} per simulated server, {@code tenant-<name>} per tenant),
 * the broker's {@link BrokerSecurity} kept in the data directory's {@code security/}, the client settings of each user
 * (what every part of the local cluster runs with, and the files written for other terminals), and the principals
 * of the ACL roles.
 */
public final class LocalSecurity {

    public static final String ADMIN = BrokerSecurity.ADMIN_USER;
    public static final String SCHEDULER = "scheduler";
    public static final String AUDITOR = "auditor";

    private final BrokerSecurity broker;
    private final List<String> nodeIds;
    private final List<String> tenants;

    private LocalSecurity(BrokerSecurity broker, List<String> nodeIds, List<String> tenants) {
        this.broker = broker;
        this.nodeIds = List.copyOf(nodeIds);
        this.tenants = List.copyOf(tenants);
    }

    /**
     * Opens (or creates) the security of {@code dir}: certificates, and a password for every user of these nodes
     * and tenants.
     *
     * @throws IllegalArgumentException when there is no tenant, or a name cannot be a user name
     */
    public static LocalSecurity open(DataDir dir, List<String> nodeIds, List<String> tenants) {
        if (tenants.isEmpty()) {
            throw new IllegalArgumentException("a secured local cluster needs at least one tenant (--tenants NAME)");
        }
        List<String> users = new ArrayList<>(List.of(SCHEDULER, AUDITOR));
        nodeIds.forEach(n -> users.add(nodeUser(n)));
        tenants.forEach(t -> users.add(tenantUser(t)));
        return new LocalSecurity(BrokerSecurity.loadOrCreate(dir.security(), users), nodeIds, tenants);
    }

    /** Whether the data directory was made by a secured run. */
    public static boolean isSecured(DataDir dir) {
        return BrokerSecurity.existsIn(dir.security());
    }

    /** The user of a node connector. */
    public static String nodeUser(String nodeId) {
        return "node-" + nodeId;
    }

    /** The user of a tenant (submitter). */
    public static String tenantUser(String tenant) {
        return "tenant-" + tenant;
    }

    public BrokerSecurity broker() {
        return broker;
    }

    /** The user {@code client.properties} holds: the first tenant (what submit, watch, status, queue need). */
    public String defaultUser() {
        return tenantUser(defaultTenant());
    }

    /** The first tenant: the one of {@code client.properties}, which plays the workload. */
    public String defaultTenant() {
        return tenants.get(0);
    }

    /** {@code config} with the SASL_SSL settings of {@code user}. */
    public QuantaConfig as(QuantaConfig config, String user) {
        return config.withOverrides(broker.clientProperties(user));
    }

    /** The principals of each ACL role. */
    public AclPrincipals principals() {
        Map<QuantaRole, List<String>> p = new EnumMap<>(QuantaRole.class);
        p.put(QuantaRole.SCHEDULER, List.of(principal(SCHEDULER)));
        p.put(QuantaRole.NODE, nodeIds.stream().map(n -> principal(nodeUser(n))).toList());
        p.put(QuantaRole.TENANT, tenants.stream().map(t -> principal(tenantUser(t))).toList());
        p.put(QuantaRole.AUDITOR, List.of(principal(AUDITOR)));
        return AclPrincipals.of(p);
    }

    /**
     * The {@code acl.*} settings naming these principals (so {@code quanta acls apply -c FILE} finds them); tenants
     * as {@code NAME=User:tenant-NAME}.
     */
    public Map<String, String> aclSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        AclPrincipals p = principals();
        for (QuantaRole role : QuantaRole.values()) {
            s.put(AclConfigSection.principalsKey(role), String.join(",", p.of(role)));
        }
        s.put(AclConfigSection.principalsKey(QuantaRole.TENANT), String.join(",", tenants.stream()
                .map(t -> t + "=" + principal(tenantUser(t))).toList()));
        return s;
    }

    /**
     * The client settings files for other terminals, by file name, each with the user it is for and what the user
     * may do: admin, scheduler, auditor, one per node, one per tenant.
     */
    public List<ClientFile> clientFiles() {
        List<ClientFile> files = new ArrayList<>();
        files.add(new ClientFile("client-admin.properties", ADMIN, "super user: topics, schemas, quanta acls apply"));
        files.add(new ClientFile("client-scheduler.properties", SCHEDULER, "quanta scheduler"));
        files.add(new ClientFile("client-auditor.properties", AUDITOR,
                "read-only: quanta nodes, quanta audit, every topic"));
        for (String node : nodeIds) {
            files.add(new ClientFile("client-" + nodeUser(node) + ".properties", nodeUser(node),
                    "quanta node --node-id " + node));
        }
        for (String tenant : tenants) {
            files.add(new ClientFile("client-" + tenantUser(tenant) + ".properties", tenantUser(tenant),
                    "submit, cancel, watch, status, queue"));
        }
        return files;
    }

    /** A client settings file: its name in the data directory, its user, and what it is for. */
    public record ClientFile(String name, String user, String purpose) {
    }

    private static String principal(String user) {
        return "User:" + user;
    }
}
