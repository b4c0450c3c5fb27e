package io.quanta.cli;

import io.quanta.cli.client.JobClient;
import java.io.PrintWriter;
import java.util.Optional;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code quanta} command. Each subcommand is its own class, registered here; exit codes are those of
 * {@link ExitCodes}.
 */
@Command(name = "quanta", mixinStandardHelpOptions = true, versionProvider = QuantaVersion.class,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:the job did not finish (FAILED, CANCELLED, timeout)",
                "2:bad usage, configuration or input; nothing was done", "3:topics apply or acls apply found drift",
                "4:refused by the scheduler (rejected, id already used, job already ended, another tenant's job)",
                "5:no such job",
                "69:the cluster or the scheduler did not answer",
                "77:the cluster refused these credentials or this principal's rights", "130:interrupted"},
        description = "GPU-cluster scheduler for deep-learning training, as a Kafka Streams application.")
public final class QuantaMain implements Runnable {

    /**
     * The subcommands, in the order the help lists them. Added by {@link #commandLine()} rather than named in the
     * annotation: picocli builds the model of every subcommand it is given (reflection over their fields and
     * methods, which loads the Avro classes they name and parses their schemas), about a quarter of a second of a
     * short command's start on 2 cores; {@link #main} gives it only the one the user runs.
     */
    private static final java.util.List<Class<?>> SUBCOMMANDS = java.util.List.of(
            // run a cluster
            LocalCommand.class, SchedulerCommand.class, NodeAgentCommand.class, SimulateCommand.class,
            // users
            SubmitCommand.class, StatusCommand.class, QueueCommand.class, NodesCommand.class, WatchCommand.class,
            CancelCommand.class,
            // operators
            TopicsCommand.class, AclsCommand.class, ConfigCommand.class, DocsCommand.class, AuditCommand.class,
            CommandLine.HelpCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        quietLogging();
        System.exit(commandLine(args.length == 0 ? "" : args[0]).execute(args));
    }

    /** The configured command line with every subcommand (also used by tests). */
    public static CommandLine commandLine() {
        return commandLine("");
    }

    /**
     * The configured command line with only the subcommand named {@code first} when there is one by that name (all
     * of them otherwise: for {@code quanta --help}, a typo's suggestions, {@code quanta help X}).
     */
    static CommandLine commandLine(String first) {
        java.util.List<Class<?>> named = SUBCOMMANDS.stream()
                .filter(c -> c.getAnnotation(Command.class).name().equals(first)).toList();
        CommandLine cmd = new CommandLine(new QuantaMain());
        (named.isEmpty() || first.equals("help") ? SUBCOMMANDS : named).forEach(cmd::addSubcommand);
        // after the subcommands: picocli gives the handler to those it has at the moment
        cmd.setExecutionExceptionHandler(QuantaMain::handle);
        CommandLine submit = cmd.getSubcommands().get("submit");
        if (submit != null) {
            // `quanta submit --gpus 2 python train.py --lr 0.1`: everything from the command on belongs to the job
            submit.setStopAtPositional(true);
        }
        return cmd;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    private static int handle(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        if (e instanceof ConfigException) {
            err.println("quanta: configuration error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        if (e instanceof JobClient.InvalidJobException invalid) {
            invalid.problems().forEach(p -> err.println("quanta: " + p));
            return ExitCodes.USAGE;
        }
        if (e instanceof IllegalArgumentException) {
            err.println("quanta: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        Optional<Throwable> denied = deniedBy(e);
        if (denied.isPresent()) {
            err.println("quanta: " + denied.get().getMessage() + " (the principal of these client settings may not "
                    + "do this: see docs/security.md for what each role may do)");
            return ExitCodes.FORBIDDEN;
        }
        if (e instanceof KafkaException || e instanceof IllegalStateException || e instanceof java.io.UncheckedIOException
                || e instanceof io.quanta.topics.registry.SchemaRegistryException) {
            err.println("quanta: " + e.getMessage());
            return ExitCodes.UNAVAILABLE;
        }
        if (e instanceof InterruptedException) {
            return ExitCodes.INTERRUPTED;
        }
        throw new IllegalStateException(e);
    }

    /** The broker's refusal to authenticate or authorize this client, anywhere in the cause chain. */
    private static Optional<Throwable> deniedBy(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AuthorizationException || t instanceof AuthenticationException) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** Kafka's broker and clients are chatty at INFO: show warnings only, and our own INFO lines. */
    private static void quietLogging() {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.log.io.quanta", "info");
        setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
    }

    /**
     * Before {@code quanta local} starts its broker: the Kafka warnings that a healthy local cluster logs are not
     * shown (the controller's "metadata log appears to be empty" on a first start; a broker client closed twice during
     * shutdown; the transactional producer's "CONCURRENT_TRANSACTIONS, retrying" when a transaction starts before the
     * coordinator finished the last commit, which it retries by itself). Every other warning still is, and the
     * scheduler's and nodes' loggers keep their levels; an explicit {@code -Dorg.slf4j.simpleLogger.log.*} wins.
     */
    static void quietLocalBroker() {
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.kafka.controller.QuorumController", "error");
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "error");
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.kafka.clients.producer.internals.Sender", "error");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
