package io.quanta.cli;

import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.admin.TopicApplyResult;
import io.quanta.topics.admin.TopicsApply;
import io.quanta.topics.config.QuantaConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code quanta topics}: administration of the Quanta topics. */
@Command(name = "topics", mixinStandardHelpOptions = true, description = "Create or verify the Quanta topics.",
        subcommands = TopicsCommand.Apply.class)
public final class TopicsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs {@link TopicsApply} over the whole catalogue and prints one line per topic; idempotent. */
    public static List<TopicApplyResult> apply(QuantaConfig config) {
        try (Admin admin = Admin.create(config.kafkaClientProperties())) {
            return new TopicsApply(admin, Duration.ofSeconds(60)).apply(TopicCatalogue.forAdministration(config)
                    .all());
        }
    }

    /** Prints results as an aligned table. */
    public static void print(List<TopicApplyResult> results, PrintWriter out) {
        int width = results.stream().mapToInt(r -> r.topic().length()).max().orElse(5);
        for (TopicApplyResult r : results) {
            out.printf("%-" + width + "s  %-7s  %s%n", r.topic(), r.outcome(), String.join("; ", r.drift()));
        }
        out.flush();
    }

    /** {@code quanta topics apply}: create missing topics, verify existing ones, report drift (exit code 3). */
    @Command(name = "apply", mixinStandardHelpOptions = true,
            description = "Create missing topics and verify existing ones (partitions, cleanup policy). "
                    + "Never changes an existing topic; exit code 3 when one differs.")
    static final class Apply implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            List<TopicApplyResult> results = apply(config.load());
            print(results, spec.commandLine().getOut());
            boolean drift = results.stream().anyMatch(r -> r.outcome() == TopicApplyResult.Outcome.DRIFT);
            return drift ? 3 : 0;
        }
    }
}
