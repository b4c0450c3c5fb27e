package io.quanta.audit.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.InboxRecord;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.audit.testing.SimulatedLogs;
import io.quanta.core.config.PolicyConfig;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.SchedulerTopology;
import io.quanta.streams.cell.ConfigFingerprint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tampered logs: the replay must point at the place where the log stops being what the scheduler did. */
class TamperTest {

    private static final Duration HEARTBEAT = SimulatedLogs.SHARED_HEARTBEAT;
    private static final String THRESHOLDS = "tiresias.thresholds";
    private static CellLog honest;

    @BeforeAll
    static void recordAnHonestLog() {
        honest = SimulatedLogs.shared("tiresias-las", 100);
    }

    private static ReplayReport replay(CellLog log) {
        ReplayRun run = CellReplayer.withBuiltInPolicies().run(log, ReplayWindow.all(), StepListener.NONE);
        return ReplayComparison.compare(log, run, ReplayWindow.all(), "tampered", 3);
    }

    private static CellLog withInbox(List<InboxRecord> inbox) {
        return new CellLog(honest.cellId(), honest.inboxTopic(), 0, inbox, honest.decisionsTopic(), 0,
                honest.decisions());
    }

    private static CellLog withDecisions(List<RecordedDecision> decisions) {
        return new CellLog(honest.cellId(), honest.inboxTopic(), 0, honest.inbox(), honest.decisionsTopic(), 0,
                decisions);
    }

    /** The decisions the processor writes over the honest inbox with the given configurations. */
    private static List<RecordedDecision> decide(ConfigTimeline timeline) {
        ReplayRun run = CellReplayer.withBuiltInPolicies().run(honest, timeline, ReplayWindow.all(),
                StepListener.NONE);
        List<RecordedDecision> out = new ArrayList<>();
        for (ReplayedDecision d : run.decisions()) {
            out.add(new RecordedDecision(out.size(), d.decision().getStreamTime().toEpochMilli(), d.decision()));
        }
        return out;
    }

    private static RecordedConfig recordedConfig() {
        return ConfigTimeline.of(honest.decisions()).initial();
    }

    /** The recorded configuration with other tiresias thresholds, and the fingerprint it would record. */
    private static SchedulerSettings otherThresholds() {
        PolicyConfig policy = recordedConfig().settings().policy().with(THRESHOLDS, "600,1800");
        return recordedConfig().settings().withPolicy(policy);
    }

    private static long middleOffset() {
        return honest.inbox().get(honest.inbox().size() / 2).offset();
    }

    private static int firstDifferentIndex(List<RecordedDecision> a, List<RecordedDecision> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!DecisionFields.identical(a.get(i).decision(), b.get(i).decision())) {
                return i;
            }
        }
        return Math.min(a.size(), b.size());
    }

    @Test
    void shouldReproduceTheHonestLog() {
        ReplayReport report = replay(honest);

        assertThat(report.allReproduced()).isTrue();
        assertThat(report.reproduced()).isEqualTo(honest.decisions().size());
    }

    @Test
    void shouldReportTheDivergenceAtTheChangedRecordWhenOneSubmissionIsAltered() {
        RecordedDecision start = honest.decisions().stream()
                .filter(d -> d.decision().getType() == DecisionType.START)
                .filter(d -> submissionAt(d.decision().getInboxOffsetTo(), d.decision().getJobId()))
                .skip(10).findFirst().orElseThrow();
        long offset = start.decision().getInboxOffsetTo();
        List<InboxRecord> inbox = new ArrayList<>();
        for (InboxRecord r : honest.inbox()) {
            inbox.add(r.offset() == offset ? withMoreGpus(r) : r);
        }
        long before = honest.decisions().stream().filter(d -> d.decision().getInboxOffsetTo() < offset).count();

        ReplayReport report = replay(withInbox(inbox));

        assertThat(report.allReproduced()).isFalse();
        Divergence first = report.divergences().get(0);
        assertThat(first.trigger().offset()).isEqualTo(offset);
        assertThat(first.index()).isGreaterThanOrEqualTo(before);
        assertThat(report.reproduced()).isGreaterThanOrEqualTo(before);
        assertThat(first.configMismatch()).isFalse();
    }

    @Test
    void shouldReportADivergenceWhenAnInputRecordIsDeleted() {
        InboxRecord removed = honest.inbox().stream()
                .filter(r -> r.input().getInput() instanceof io.quanta.schemas.JobEvent e
                        && e.getType() == io.quanta.schemas.JobEventType.COMPLETED)
                .skip(5).findFirst().orElseThrow();
        List<InboxRecord> inbox = honest.inbox().stream().filter(r -> r != removed).toList();

        ReplayReport report = replay(withInbox(inbox));

        assertThat(report.allReproduced()).isFalse();
        Divergence first = report.divergences().get(0);
        assertThat(first.recorded().getInboxOffsetTo()).isGreaterThanOrEqualTo(removed.offset());
    }

    @Test
    void shouldReportTheDivergenceWhereAPolicyParameterChangedWithoutBeingRecorded() {
        RecordedConfig recorded = recordedConfig();
        RecordedConfig unrecorded = new RecordedConfig(recorded.record(), otherThresholds(), recorded.fingerprint());
        List<RecordedDecision> tampered = decide(new ConfigTimeline(List.of(
                new ConfigTimeline.Change(Long.MIN_VALUE, recorded),
                new ConfigTimeline.Change(middleOffset(), unrecorded))));
        int expected = firstDifferentIndex(honest.decisions(), tampered);

        ReplayReport report = replay(withDecisions(tampered));

        assertThat(expected).isLessThan(tampered.size());
        assertThat(tampered.get(expected).decision().getInboxOffsetTo()).isGreaterThanOrEqualTo(middleOffset());
        assertThat(report.allReproduced()).isFalse();
        Divergence first = report.divergences().get(0);
        assertThat(first.index()).isEqualTo(expected);
        assertThat(first.configMismatch()).isFalse();
        assertThat(first.recorded().getConfigHash()).isEqualTo(first.replayed().getConfigHash());
        assertThat(report.reproduced()).isGreaterThanOrEqualTo(expected);
    }

    @Test
    void shouldReproduceALogWhoseConfigurationChangeWasRecorded() {
        SchedulerSettings other = otherThresholds();
        ConfigFingerprint fingerprint = ConfigFingerprint.of(other.policy(), other.passInterval(),
                other.nodeTimeout(), other.finishedRetention(), other.attemptTimeouts(),
                recordedConfig().softwareVersion());
        RecordedConfig changed = new RecordedConfig(recordedConfig().record(), other, fingerprint);
        List<RecordedDecision> log = decide(new ConfigTimeline(List.of(
                new ConfigTimeline.Change(Long.MIN_VALUE, recordedConfig()),
                new ConfigTimeline.Change(middleOffset(), changed))));

        ReplayReport report = replay(withDecisions(log));

        List<SchedulingDecision> configs = log.stream().map(RecordedDecision::decision)
                .filter(d -> d.getType() == DecisionType.CONFIG).toList();
        assertThat(configs).hasSize(2);
        assertThat(configs.get(1).getInboxOffsetTo()).isEqualTo(middleOffset());
        assertThat(configs.get(1).getDetails()).containsEntry("policy." + THRESHOLDS, "600,1800");
        assertThat(report.run().configs().changes()).hasSize(2);
        assertThat(report.allReproduced()).isTrue();
        assertThat(report.reproduced()).isEqualTo(log.size());
    }

    @Test
    void shouldReportAConfigurationMismatchWhenADecisionCarriesAnotherHash() {
        List<RecordedDecision> decisions = new ArrayList<>(honest.decisions());
        int victim = decisions.size() / 2;
        RecordedDecision d = decisions.get(victim);
        decisions.set(victim, new RecordedDecision(d.offset(), d.timestampMs(),
                SchedulingDecision.newBuilder(d.decision()).setConfigHash("0123456789abcdef").build()));

        ReplayReport report = replay(withDecisions(decisions));

        assertThat(report.diverged()).isEqualTo(1);
        Divergence only = report.divergences().get(0);
        assertThat(only.index()).isEqualTo(victim);
        assertThat(only.configMismatch()).isTrue();
        assertThat(only.differences()).extracting(DecisionFields.Difference::field).containsExactly("configHash");
    }

    @Test
    void shouldRefuseAConfigRecordWhoseDetailsDoNotMatchItsHash() {
        List<RecordedDecision> decisions = new ArrayList<>(honest.decisions());
        SchedulingDecision config = decisions.get(0).decision();
        TreeMap<String, String> details = new TreeMap<>(config.getDetails());
        details.put("policy." + THRESHOLDS, "600,1800");
        decisions.set(0, new RecordedDecision(0, decisions.get(0).timestampMs(),
                SchedulingDecision.newBuilder(config).setDetails(details).build()));

        assertThatThrownBy(() -> replay(withDecisions(decisions)))
                .isInstanceOf(ReplayException.class)
                .hasMessageContaining("inconsistent")
                .hasMessageContaining(config.getConfigHash());
    }

    @Test
    void shouldRefuseALogWhoseBeginningWasDeleted() {
        List<RecordedDecision> decisions = honest.decisions().subList(5, honest.decisions().size());

        assertThatThrownBy(() -> replay(withDecisions(decisions)))
                .isInstanceOf(ReplayException.class)
                .hasMessageContaining("seq 6")
                .hasMessageContaining("retention.ms=-1");
    }

    @Test
    void shouldWriteTheCellSchedulerConfigRecordFirstOnTheFirstInboxRecord() {
        SchedulingDecision first = honest.decisions().get(0).decision();

        assertThat(first.getType()).isEqualTo(DecisionType.CONFIG);
        assertThat(first.getInboxOffsetTo()).isEqualTo(honest.firstInboxOffset());
        assertThat(first.getConfigHash()).isEqualTo(SchedulerTopology.fingerprint(
                SimulatedLogs.settings(Map.of("policy", "tiresias-las"), HEARTBEAT)).hash());
    }

    private static boolean submissionAt(long offset, String jobId) {
        return honest.inbox().stream().anyMatch(r -> r.offset() == offset
                && r.input().getInput() instanceof JobSubmitted s && s.getJobId().equals(jobId));
    }

    private static InboxRecord withMoreGpus(InboxRecord r) {
        JobSubmitted s = (JobSubmitted) r.input().getInput();
        JobSubmitted changed = JobSubmitted.newBuilder(s).setNumGpus(s.getNumGpus() == 8 ? 4 : s.getNumGpus() * 2)
                .build();
        return InboxRecord.of(r.offset(), r.timestampMs(), r.key(),
                CellInput.newBuilder(r.input()).setInput(changed).build());
    }
}
