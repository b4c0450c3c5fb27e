package io.quanta.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.audit.log.AuditExportFile;
import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.audit.replay.LogPosition;
import io.quanta.audit.testing.SimulatedLogs;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.SchedulingDecision;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command runners over export files (the broker side is covered by the integration test). */
class AuditCommandsTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AuditCommands commands = new AuditCommands(() -> {
        throw new AssertionError("the broker must not be used when --file is given");
    }, PolicyRegistry.builtIn(), Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    private CellLog log;
    private Path file;

    @BeforeEach
    void exportALog() {
        log = SimulatedLogs.shared("tiresias-las", 100);
        file = dir.resolve("cell-0.avro");
        AuditExportFile.write(log, file, Clock.systemUTC(), "test");
    }

    private PrintStream stdout() {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    private PrintStream stderr() {
        return new PrintStream(err, true, StandardCharsets.UTF_8);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldExitZeroAndCountTheDecisionsWhenTheReplayReproducesTheExport() {
        int code = commands.replay(ReplayOptions.of("cell-0").withFile(file), stdout(), stderr());

        assertThat(code).isZero();
        assertThat(output()).contains(log.decisions().size() + " decisions reproduced, 0 diverged")
                .contains("state rebuilt from the beginning of the retained inbox (offset 0)")
                .contains("configuration tiresias-las");
    }

    @Test
    void shouldExitOneAndShowRecordInputAndBothDecisionsWhenADecisionWasAltered() {
        List<RecordedDecision> decisions = new ArrayList<>(log.decisions());
        int victim = indexOfFirst(decisions, DecisionType.SUSPEND);
        RecordedDecision d = decisions.get(victim);
        decisions.set(victim, new RecordedDecision(d.offset(), d.timestampMs(), SchedulingDecision
                .newBuilder(d.decision()).setReason("forged reason").build()));
        Path forged = dir.resolve("forged.avro");
        AuditExportFile.write(new CellLog(log.cellId(), log.inboxTopic(), 0, log.inbox(), log.decisionsTopic(), 0,
                decisions), forged, Clock.systemUTC(), "test");

        int code = commands.replay(ReplayOptions.of("cell-0").withFile(forged), stdout(), stderr());

        assertThat(code).isEqualTo(AuditCommands.FAILED);
        assertThat(output()).contains((log.decisions().size() - 1) + " decisions reproduced, 1 diverged")
                .contains("divergence 1: decision #" + (victim + 1) + " (seq " + d.decision().getSeq() + ")")
                .contains("inbox record: inbox offset " + d.decision().getInboxOffsetTo())
                .contains("recorded: SUSPEND job " + d.decision().getJobId())
                .contains("reason: forged reason")
                .contains("reason: " + d.decision().getReason())
                .contains("reason: recorded \"forged reason\", replayed \"" + d.decision().getReason() + "\"");
    }

    @Test
    void shouldReplayOnlyUpToTheGivenOffsetWhenToIsGiven() {
        long to = log.inbox().get(log.inbox().size() / 2).offset();
        long expected = log.decisions().stream().filter(d -> d.decision().getInboxOffsetTo() <= to).count();

        int code = commands.replay(new ReplayOptions("cell-0", Optional.empty(),
                Optional.of(new LogPosition.Offset(to)), Optional.of(file), 3), stdout(), stderr());

        assertThat(code).isZero();
        assertThat(output()).contains(expected + " decisions reproduced, 0 diverged");
    }

    @Test
    void shouldExitTwoWhenTheFileHoldsAnotherCell() {
        int code = commands.replay(ReplayOptions.of("cell-9").withFile(file), stdout(), stderr());

        assertThat(code).isEqualTo(AuditCommands.UNUSABLE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("holds cell cell-0, not cell-9");
    }

    @Test
    void shouldPrintTheTimelineOfAJobAsJsonWhenAsked() {
        String job = log.decisions().get(5).decision().getJobId();

        int code = commands.explain(new ExplainOptions(job, Optional.empty(), Optional.of(file), true), stdout(),
                stderr());

        assertThat(code).isZero();
        assertThat(output()).contains("\"jobId\" : \"" + job + "\"").contains("\"attainedGpuSeconds\"");
    }

    @Test
    void shouldExitTwoWhenExplainingAnUnknownJob() {
        int code = commands.explain(new ExplainOptions("ghost", Optional.empty(), Optional.of(file), false),
                stdout(), stderr());

        assertThat(code).isEqualTo(AuditCommands.UNUSABLE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no submission of job ghost");
    }

    @Test
    void shouldWriteATraceFileWhenExportingTheTrace() throws Exception {
        Path csv = dir.resolve("trace.csv");

        int code = commands.exportTrace(new ExportTraceOptions(Optional.empty(), Optional.of(file), Optional.empty(),
                Optional.empty(), Optional.of(csv)), stdout(), stderr());

        assertThat(code).isZero();
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).startsWith("job_id,submit_time_s,num_gpus,duration_s");
        assertThat(lines).hasSize(101);
        assertThat(output()).contains("wrote 100 jobs of 1 cell(s)");
    }

    private static int indexOfFirst(List<RecordedDecision> decisions, DecisionType type) {
        for (int i = 0; i < decisions.size(); i++) {
            if (decisions.get(i).decision().getType() == type) {
                return i;
            }
        }
        throw new AssertionError("no " + type + " decision in the log");
    }
}
