package io.quanta.cli;

import java.io.PrintWriter;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code quanta} command. Each subcommand is its own class, registered here; exit codes: 0 success, 1 failure,
 * 2 usage or configuration error, 3 drift found by {@code topics apply}.
 */
@Command(name = "quanta", mixinStandardHelpOptions = true, versionProvider = QuantaVersion.class,
        description = "GPU-cluster scheduler for deep-learning training, as a Kafka Streams application.",
        subcommands = {LocalCommand.class, TopicsCommand.class, ConfigCommand.class,
                CommandLine.HelpCommand.class})
public final class QuantaMain implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        quietLogging();
        System.exit(commandLine().execute(args));
    }

    /** The configured command line (also used by tests). */
    public static CommandLine commandLine() {
        return new CommandLine(new QuantaMain()).setExecutionExceptionHandler(QuantaMain::handle);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    private static int handle(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        if (e instanceof ConfigException) {
            err.println("quanta: configuration error: " + e.getMessage());
            return 2;
        }
        if (e instanceof KafkaException || e instanceof IllegalStateException) {
            err.println("quanta: " + e.getMessage());
            return 1;
        }
        throw new IllegalStateException(e);
    }

    /** Kafka's broker and clients are chatty at INFO: show warnings only, and our own INFO lines. */
    private static void quietLogging() {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.log.io.quanta", "info");
        setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
