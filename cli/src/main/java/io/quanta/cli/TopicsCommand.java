package io.quanta.cli;

import io.quanta.cli.setup.ClusterSetup;
import io.quanta.topics.admin.SchemaApplyResult;
import io.quanta.topics.admin.TopicApplyResult;
import io.quanta.topics.config.QuantaConfig;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code quanta topics}: administration of the Quanta topics. */
@Command(name = "topics", mixinStandardHelpOptions = true, description = "Create or verify the Quanta topics.",
        subcommands = {TopicsCommand.Apply.class, AddTenantCommand.class})
public final class TopicsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Prints schema results as an aligned table. */
    public static void printSchemas(List<SchemaApplyResult> results, PrintWriter out) {
        int width = results.stream().mapToInt(r -> r.subject().length()).max().orElse(7);
        for (SchemaApplyResult r : results) {
            out.printf("%-" + width + "s  %-10s  %s%n", r.subject(), r.outcome(), r.detail());
        }
        out.flush();
    }

    /** Prints results as an aligned table. */
    public static void print(List<TopicApplyResult> results, PrintWriter out) {
        int width = results.stream().mapToInt(r -> r.topic().length()).max().orElse(5);
        for (TopicApplyResult r : results) {
            out.printf("%-" + width + "s  %-7s  %s%n", r.topic(), r.outcome(), String.join("; ", r.drift()));
        }
        out.flush();
    }

    /**
     * {@code quanta topics apply}: create missing topics, verify existing ones, register every value schema, report
     * drift (exit code 3).
     */
    @Command(name = "apply", mixinStandardHelpOptions = true,
            description = "Create missing topics and verify existing ones (partitions, cleanup policy, timestamp "
                    + "type), and register the value schema of every topic in the schema registry, so producers "
                    + "that do not register schemas work on a fresh cluster. Never changes an existing topic nor "
                    + "forces an incompatible schema; exit code 3 when one differs.")
    static final class Apply implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            QuantaConfig loaded = config.load();
            List<TopicApplyResult> results = ClusterSetup.applyTopics(loaded);
            print(results, spec.commandLine().getOut());
            List<SchemaApplyResult> schemas = ClusterSetup.applySchemas(loaded);
            printSchemas(schemas, spec.commandLine().getOut());
            boolean drift = results.stream().anyMatch(r -> r.outcome() == TopicApplyResult.Outcome.DRIFT)
                    || schemas.stream().anyMatch(r -> r.outcome() == SchemaApplyResult.Outcome.DRIFT);
            return drift ? 3 : 0;
        }
    }
}
