package io.quanta.cli;

import io.quanta.cli.acl.AclConfigSection;
import io.quanta.cli.client.Table;
import io.quanta.cli.setup.ClusterSetup;
import io.quanta.topics.admin.AclApplyResult;
import io.quanta.topics.admin.AclPlan;
import io.quanta.topics.admin.QuantaRole;
import io.quanta.topics.config.QuantaConfig;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code quanta acls}: the least-privilege ACLs of the Quanta roles ({@link AclPlan}), printed or applied. */
@Command(name = "acls", mixinStandardHelpOptions = true,
        description = {"Print or apply the least-privilege ACLs of the Quanta roles (scheduler, node, tenant, "
                + "auditor) on a cluster with an authorizer; see docs/security.md.", "",
                "Principals come from acl.<role>.principals (a file given with -c, QUANTA_ACL_* variables, --set) "
                        + "or from the flags, e.g.:",
                "  quanta acls print --scheduler User:scheduler --node User:node-1 --node User:node-2 "
                        + "--tenant User:vision --auditor User:auditor",
                "  quanta acls apply -c admin.properties --scheduler User:scheduler ..."},
        subcommands = {AclsCommand.Print.class, AclsCommand.Apply.class})
public final class AclsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The principals given as flags; each flag given replaces the configured list of its role. */
    static final class PrincipalOptions {
        @Option(names = "--scheduler", paramLabel = "PRINCIPAL",
                description = "Principal of the scheduler, e.g. User:scheduler; repeatable.")
        List<String> schedulers;

        @Option(names = "--node", paramLabel = "PRINCIPAL",
                description = "Principal of a node connector, e.g. User:node-1; repeatable.")
        List<String> nodes;

        @Option(names = "--tenant", paramLabel = "[TENANT=]PRINCIPAL",
                description = "Principal of a submitter, e.g. User:vision (tenant vision) or vision=User:tenant-vision; "
                        + "repeatable. With scheduler.tenant.topics it may write only its tenant's submissions topic.")
        List<String> tenants;

        @Option(names = "--auditor", paramLabel = "PRINCIPAL",
                description = "Principal of an auditor (read-only), e.g. User:auditor; repeatable.")
        List<String> auditors;

        QuantaConfig over(QuantaConfig config) {
            Map<String, String> flags = new LinkedHashMap<>();
            put(flags, QuantaRole.SCHEDULER, schedulers);
            put(flags, QuantaRole.NODE, nodes);
            put(flags, QuantaRole.TENANT, tenants);
            put(flags, QuantaRole.AUDITOR, auditors);
            return config.withOverrides(flags);
        }

        private static void put(Map<String, String> flags, QuantaRole role, List<String> values) {
            if (values != null) {
                flags.put(AclConfigSection.principalsKey(role), String.join(",", values));
            }
        }
    }

    /** {@code quanta acls print}: the plan as a table, no cluster needed. */
    @Command(name = "print", mixinStandardHelpOptions = true,
            description = "Print the ACLs each role gets (one line per binding; all ALLOW, host *). Needs no cluster.")
    static final class Print implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Mixin
        PrincipalOptions principals;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            AclPlan plan = ClusterSetup.aclPlan(principals.over(config.load()));
            Table table = new Table("ROLE", "PRINCIPAL", "OPERATION", "RESOURCE", "PATTERN", "NAME");
            for (AclPlan.Entry e : plan.entries()) {
                table.row((Object[]) row(e.role().label(), e.binding()));
            }
            table.print(spec.commandLine().getOut());
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        }
    }

    /** {@code quanta acls apply}: create what is missing, report grants beyond the plan (exit 3). */
    @Command(name = "apply", mixinStandardHelpOptions = true,
            description = {"Create the missing ACLs of the roles with the Admin API (as a principal that may manage "
                    + "ACLs: a super user) and report every other ALLOW ACL on a Quanta topic, the scheduler's group "
                    + "or its transactional ids as DRIFT: it gives someone more than the roles do. Never deletes an "
                    + "ACL; idempotent. Exit code 3 when there is drift, 77 when this principal may not manage ACLs, 2 when "
                    + "the cluster has no authorizer."})
    static final class Apply implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Mixin
        PrincipalOptions principals;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            QuantaConfig loaded = principals.over(config.load());
            AclPlan plan = ClusterSetup.aclPlan(loaded);
            PrintWriter out = spec.commandLine().getOut();
            List<AclApplyResult> results;
            try {
                results = ClusterSetup.applyAcls(loaded, plan);
            } catch (KafkaException e) {
                if (e.getCause() instanceof SecurityDisabledException
                        || e.getCause() instanceof ClusterAuthorizationException) {
                    spec.commandLine().getErr().println("quanta: " + e.getMessage());
                    return e.getCause() instanceof SecurityDisabledException ? ExitCodes.USAGE : ExitCodes.FORBIDDEN;
                }
                throw e;
            }
            Table table = new Table("OUTCOME", "ROLE", "PRINCIPAL", "OPERATION", "RESOURCE", "PATTERN", "NAME");
            for (AclApplyResult r : results) {
                List<Object> cells = new ArrayList<>(List.of(r.outcome().name()));
                cells.addAll(List.of(row(r.role().map(QuantaRole::label).orElse("-"), r.binding())));
                table.row(cells.toArray());
            }
            table.print(out);
            long drift = results.stream().filter(r -> r.outcome() == AclApplyResult.Outcome.DRIFT).count();
            long created = results.stream().filter(r -> r.outcome() == AclApplyResult.Outcome.CREATED).count();
            out.printf("%d ACLs created, %d already there, %d drift%s%n", created,
                    results.size() - created - drift, drift, drift == 0 ? "" : " (ALLOW grants on Quanta resources "
                            + "that no role has: remove them, e.g. with kafka-acls.sh --remove, or add the principal "
                            + "to a role)");
            out.flush();
            return drift > 0 ? ExitCodes.DRIFT : ExitCodes.OK;
        }
    }

    private static String[] row(String role, AclBinding b) {
        String op = b.entry().operation().name();
        if (b.entry().permissionType() != org.apache.kafka.common.acl.AclPermissionType.ALLOW
                || !"*".equals(b.entry().host())) {
            op += " (" + b.entry().permissionType() + ", host " + b.entry().host() + ")";
        }
        return new String[] {role, b.entry().principal(), op, b.pattern().resourceType().name(),
                b.pattern().patternType().name().toLowerCase(Locale.ROOT), b.pattern().name()};
    }
}
