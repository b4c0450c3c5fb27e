package io.quanta.cli;

import io.quanta.audit.AuditCommands;
import io.quanta.audit.ExplainOptions;
import io.quanta.audit.ExportOptions;
import io.quanta.audit.ExportTraceOptions;
import io.quanta.audit.ReplayOptions;
import io.quanta.audit.replay.LogPosition;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code quanta audit replay|explain|export|export-trace}: thin picocli front of {@link AuditCommands} (module
 * audit), which does the work and returns the exit code. See docs/audit.md.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "Audit the scheduler from its log: replay and compare every decision, explain a job, export.",
        subcommands = {AuditCommand.Replay.class, AuditCommand.Explain.class, AuditCommand.Export.class,
                AuditCommand.ExportTrace.class})
public final class AuditCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Shared plumbing: the configuration (read only when the broker is used) and the output streams. */
    abstract static class Sub implements Callable<Integer> {
        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        /** Runs a command of {@link AuditCommands} and copies what it printed to picocli's writers. */
        int run(Function<AuditCommands, Runner> command) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = command.apply(AuditCommands.of(config::load)).run(
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            spec.commandLine().getOut().print(out.toString(StandardCharsets.UTF_8));
            spec.commandLine().getOut().flush();
            spec.commandLine().getErr().print(err.toString(StandardCharsets.UTF_8));
            spec.commandLine().getErr().flush();
            return code;
        }
    }

    /** One command of {@link AuditCommands} bound to its options. */
    @FunctionalInterface
    interface Runner {
        int run(PrintStream out, PrintStream err);
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = "Replay a cell's inbox through a fresh scheduler and compare every decision with the "
                    + "recorded one. Exit 0 only when all are reproduced, 1 when some diverge.")
    static final class Replay extends Sub {
        @Option(names = "--cell", required = true, paramLabel = "CELL", description = "The cell to replay.")
        String cell;

        @Option(names = "--from", paramLabel = "OFFSET|TIME",
                description = "Compare from this inbox offset or ISO-8601 time (state is always rebuilt from the "
                        + "beginning of the retained log).")
        String from;

        @Option(names = "--to", paramLabel = "OFFSET|TIME", description = "Replay and compare up to here.")
        String to;

        @Option(names = "--file", paramLabel = "EXPORT", description = "Read an export file instead of the cluster.")
        Path file;

        @Option(names = "--show", paramLabel = "N", defaultValue = "3",
                description = "Divergences printed in detail (default ${DEFAULT-VALUE}).")
        int show;

        @Override
        public Integer call() {
            ReplayOptions options = new ReplayOptions(cell, Optional.ofNullable(from).map(LogPosition::parse),
                    Optional.ofNullable(to).map(LogPosition::parse), Optional.ofNullable(file), show);
            return run(c -> (out, err) -> c.replay(options, out, err));
        }
    }

    @Command(name = "explain", mixinStandardHelpOptions = true,
            description = "A job's timeline: submission, queue changes, starts, preemptions, migrations, completion, "
                    + "with the reason of every decision and the attained service at that moment.")
    static final class Explain extends Sub {
        @Parameters(paramLabel = "JOB", description = "The job id.")
        String job;

        @Option(names = "--cell", paramLabel = "CELL", description = "The job's cell (default: found in the inbox).")
        String cell;

        @Option(names = "--file", paramLabel = "EXPORT", description = "Read an export file instead of the cluster.")
        Path file;

        @Option(names = "--json", description = "JSON instead of a table.")
        boolean json;

        @Override
        public Integer call() {
            ExplainOptions options = new ExplainOptions(job, Optional.ofNullable(cell), Optional.ofNullable(file),
                    json);
            return run(c -> (out, err) -> c.explain(options, out, err));
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Write a cell's inbox and decisions to a self-contained Avro container file.")
    static final class Export extends Sub {
        @Option(names = "--cell", required = true, paramLabel = "CELL", description = "The cell to export.")
        String cell;

        @Option(names = "--to", required = true, paramLabel = "FILE", description = "The file to write.")
        Path to;

        @Override
        public Integer call() {
            return run(c -> (out, err) -> c.export(new ExportOptions(cell, to), out, err));
        }
    }

    @Command(name = "export-trace", mixinStandardHelpOptions = true,
            description = "Derive a workload trace (common CSV format) from the log, for `quanta simulate --compare`.")
    static final class ExportTrace extends Sub {
        @Option(names = "--cell", paramLabel = "CELL", description = "Only this cell (default: every cell).")
        String cell;

        @Option(names = "--file", paramLabel = "EXPORT", description = "Read an export file instead of the cluster.")
        Path file;

        @Option(names = "--from", paramLabel = "TIME", description = "Jobs submitted at or after (ISO-8601).")
        Instant from;

        @Option(names = "--to", paramLabel = "TIME", description = "Jobs submitted at or before (ISO-8601).")
        Instant to;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "CSV file (default: standard output).")
        Path output;

        @Override
        public Integer call() {
            ExportTraceOptions options = new ExportTraceOptions(Optional.ofNullable(cell), Optional.ofNullable(file),
                    Optional.ofNullable(from), Optional.ofNullable(to), Optional.ofNullable(output));
            return run(c -> (out, err) -> c.exportTrace(options, out, err));
        }
    }
}
