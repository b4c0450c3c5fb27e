package io.quanta.audit;

import io.quanta.audit.explain.JobTimeline;
import io.quanta.audit.explain.TimelineWriter;
import io.quanta.audit.log.AuditExportFile;
import io.quanta.audit.log.AuditSource;
import io.quanta.audit.log.BrokerAuditSource;
import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.ExportFileSource;
import io.quanta.audit.replay.CellReplayer;
import io.quanta.audit.replay.ReplayComparison;
import io.quanta.audit.replay.ReplayException;
import io.quanta.audit.replay.ReplayReport;
import io.quanta.audit.replay.ReplayReportWriter;
import io.quanta.audit.replay.ReplayRun;
import io.quanta.audit.replay.ReplayWindow;
import io.quanta.audit.replay.StepListener;
import io.quanta.audit.trace.TraceExporter;
import io.quanta.audit.trace.TraceRow;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.streams.SoftwareVersion;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code quanta audit} subcommands without a command-line library: each takes its options record and two
 * streams, writes its output and returns the exit code. 0: success (replay: every compared decision reproduced);
 * 1: replay found divergences, or a failure talking to the cluster; 2: the request cannot be served (unknown cell or
 * job, a log that cannot be replayed, a bad file). The broker is only contacted when no {@code --file} is given.
 */
public final class AuditCommands {

    /** Exit code: success. */
    public static final int OK = 0;
    /** Exit code: divergences found, or a failure. */
    public static final int FAILED = 1;
    /** Exit code: the request cannot be served. */
    public static final int UNUSABLE = 2;

    private final Supplier<QuantaConfig> config;
    private final CellReplayer replayer;
    private final Clock clock;

    /**
     * @param config   the configuration (cluster, registry, topic names), read only when the broker is used
     * @param policies the policies replay may run
     * @param clock    stamps export files
     */
    public AuditCommands(Supplier<QuantaConfig> config, PolicyRegistry policies, Clock clock) {
        this.config = config;
        this.replayer = new CellReplayer(policies);
        this.clock = clock;
    }

    /** The commands with the built-in policies and the system clock. */
    public static AuditCommands of(Supplier<QuantaConfig> config) {
        return new AuditCommands(config, PolicyRegistry.builtIn(), Clock.systemUTC());
    }

    /** {@code audit replay}: replays a cell's inbox and compares every decision. */
    public int replay(ReplayOptions o, PrintStream out, PrintStream err) {
        return guarded(err, () -> {
            try (AuditSource source = open(o.file())) {
                CellLog log = source.cell(o.cellId());
                if (log.isEmpty()) {
                    err.println("quanta audit: " + source.describe() + " has no records of cell " + o.cellId());
                    return UNUSABLE;
                }
                ReplayWindow window = new ReplayWindow(o.from(), o.to());
                ReplayRun run = replayer.run(log, window, StepListener.NONE);
                ReplayReport report = ReplayComparison.compare(log, run, window, source.describe(),
                        Math.max(o.shown(), 1));
                ReplayReportWriter.write(report, out, o.shown());
                return report.allReproduced() ? OK : FAILED;
            }
        });
    }

    /** {@code audit explain JOB}: the job's timeline with reasons and attained service. */
    public int explain(ExplainOptions o, PrintStream out, PrintStream err) {
        return guarded(err, () -> {
            try (AuditSource source = open(o.file())) {
                Optional<String> cell = o.cellId().or(() -> source.cellOfJob(o.jobId()));
                if (cell.isEmpty()) {
                    err.println("quanta audit: no submission of job " + o.jobId() + " in " + source.describe());
                    return UNUSABLE;
                }
                JobTimeline timeline = JobTimeline.of(source.cell(cell.get()), o.jobId(), replayer,
                        source.describe());
                if (!timeline.found()) {
                    err.println("quanta audit: cell " + cell.get() + " has no record of job " + o.jobId());
                    return UNUSABLE;
                }
                if (o.json()) {
                    TimelineWriter.json(timeline, out);
                } else {
                    TimelineWriter.table(timeline, out);
                }
                return OK;
            }
        });
    }

    /** {@code audit export}: writes a cell's inbox and decisions to a self-contained Avro file. */
    public int export(ExportOptions o, PrintStream out, PrintStream err) {
        return guarded(err, () -> {
            try (AuditSource source = open(Optional.empty())) {
                CellLog log = source.cell(o.cellId());
                if (log.isEmpty()) {
                    err.println("quanta audit: " + source.describe() + " has no records of cell " + o.cellId());
                    return UNUSABLE;
                }
                AuditExportFile.write(log, o.to(), clock, SoftwareVersion.current());
                out.println("exported cell " + o.cellId() + ": " + log.inbox().size() + " inbox records (partition "
                        + log.inboxPartition() + ") and " + log.decisions().size() + " decisions to " + o.to());
                return OK;
            }
        });
    }

    /** {@code audit export-trace}: derives a workload trace (common CSV format) from the log. */
    public int exportTrace(ExportTraceOptions o, PrintStream out, PrintStream err) {
        return guarded(err, () -> {
            try (AuditSource source = open(o.file())) {
                List<String> cells = o.cellId().map(List::of).orElseGet(source::cells);
                List<CellLog> logs = new ArrayList<>();
                cells.forEach(c -> logs.add(source.cell(c)));
                List<TraceRow> rows = TraceExporter.rows(logs, o.from(), o.to());
                if (o.output().isPresent()) {
                    try (Writer w = Files.newBufferedWriter(o.output().get(), StandardCharsets.UTF_8)) {
                        TraceExporter.writeCsv(rows, w);
                    }
                    out.println("wrote " + rows.size() + " jobs of " + cells.size() + " cell(s) to " + o.output().get());
                } else {
                    Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
                    TraceExporter.writeCsv(rows, w);
                }
                return OK;
            }
        });
    }

    private AuditSource open(Optional<Path> file) {
        return file.<AuditSource>map(ExportFileSource::open).orElseGet(() -> BrokerAuditSource.connect(config.get()));
    }

    /** A command body that may throw; expected failures become a message and an exit code. */
    @FunctionalInterface
    private interface Body {
        int run() throws IOException;
    }

    private static int guarded(PrintStream err, Body body) {
        try {
            return body.run();
        } catch (ReplayException | IllegalArgumentException e) {
            err.println("quanta audit: " + e.getMessage());
            return UNUSABLE;
        } catch (IOException | UncheckedIOException e) {
            err.println("quanta audit: " + e.getMessage());
            return UNUSABLE;
        } catch (IllegalStateException | org.apache.kafka.common.KafkaException e) {
            err.println("quanta audit: " + e.getMessage());
            return FAILED;
        }
    }
}
