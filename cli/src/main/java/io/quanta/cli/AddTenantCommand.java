package io.quanta.cli;

import io.quanta.cli.setup.ClusterSetup;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.admin.TopicApplyResult;
import io.quanta.topics.config.QuantaConfig;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code quanta topics add-tenant TENANT...}: creates each tenant's own submissions topic
 * ({@code <submissions>.<tenant>}, the settings of the shared one) for tenant authentication
 * ({@code scheduler.tenant.topics}); give each tenant's principal WRITE on its topic only ({@code quanta acls}).
 * Idempotent; drift is reported like {@code topics apply}.
 */
@Command(name = "add-tenant", mixinStandardHelpOptions = true,
        description = {"Create the submissions topic of each tenant (<submissions topic>.<tenant>) for tenant "
                + "authentication (scheduler.tenant.topics).", "",
                "Exit 0 created or present, 3 a topic exists with other settings, 2 an invalid tenant name."})
public final class AddTenantCommand implements Callable<Integer> {

    @Parameters(paramLabel = "TENANT", arity = "1..*", description = "Tenant names ([A-Za-z0-9_-], 1 to 64).")
    List<String> tenants;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        QuantaConfig loaded = config.load();
        List<TopicSpec<String, ?>> specs;
        try {
            specs = ClusterSetup.tenantTopics(loaded, tenants);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return ExitCodes.USAGE;
        }
        List<TopicApplyResult> results = ClusterSetup.applyTopics(loaded, specs);
        TopicsCommand.print(results, spec.commandLine().getOut());
        return results.stream().anyMatch(r -> r.outcome() == TopicApplyResult.Outcome.DRIFT)
                ? ExitCodes.DRIFT : ExitCodes.OK;
    }
}
