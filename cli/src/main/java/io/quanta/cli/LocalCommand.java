package io.quanta.cli;

import io.quanta.embedded.EmbeddedKafkaStack;
import io.quanta.topics.admin.TopicApplyResult;
import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code quanta local}: everything on this machine, nothing to install. Starts an in-JVM Kafka broker and an Apicurio
 * registry (in parallel), applies the topics, prints the addresses and {@code ready}, then runs until Ctrl-C or
 * SIGTERM, when it stops the broker and the registry's whole process tree. State is ephemeral.
 */
@Command(name = "local", mixinStandardHelpOptions = true,
        description = "Run on this machine with an embedded Kafka broker and schema registry; Ctrl-C stops it.")
public final class LocalCommand implements Callable<Integer> {

    @Mixin
    ConfigOptions config;

    @Option(names = "--registry-timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "How long to wait for the schema registry to start (default: ${DEFAULT-VALUE}).")
    int registryTimeoutSeconds;

    @Option(names = "--stop-when-ready", description = "Stop as soon as everything is ready (smoke tests).")
    boolean stopWhenReady;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        QuantaConfig base = config.load();
        out.println("quanta local: starting Kafka broker and schema registry...");
        out.flush();
        EmbeddedKafkaStack stack = EmbeddedKafkaStack.start(Duration.ofSeconds(registryTimeoutSeconds));
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> stop(stack, out, stopped), "quanta-local-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        QuantaConfig effective = base.withOverrides(Map.of(
                ConnectionConfigSection.BOOTSTRAP_SERVERS, stack.bootstrapServers(),
                ConnectionConfigSection.REGISTRY_URL, stack.registryUrl()));
        List<TopicApplyResult> topics = TopicsCommand.apply(effective);
        out.printf("  kafka bootstrap servers  %s   (started in %d ms)%n", stack.bootstrapServers(),
                stack.broker().startupTime().toMillis());
        out.printf("  schema registry          %s   (started in %d ms, log %s)%n", stack.registryUrl(),
                stack.registry().startupTime().toMillis(), stack.registry().logFile());
        out.printf("  topics                   %d applied%n", topics.size());
        TopicsCommand.print(topics, out);
        out.println("ready");
        out.flush();
        if (stopWhenReady) {
            Runtime.getRuntime().removeShutdownHook(hook);
            stop(stack, out, stopped);
            return 0;
        }
        stopped.await();
        return 0;
    }

    private static void stop(EmbeddedKafkaStack stack, PrintWriter out, CountDownLatch stopped) {
        if (stopped.getCount() == 0) {
            return;
        }
        out.println("quanta local: stopping...");
        out.flush();
        stack.close();
        out.println("quanta local: stopped");
        out.flush();
        stopped.countDown();
    }
}
