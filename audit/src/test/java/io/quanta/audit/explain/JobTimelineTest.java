package io.quanta.audit.explain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quanta.audit.log.CellLog;
import io.quanta.audit.replay.CellReplayer;
import io.quanta.audit.testing.SimulatedLogs;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.SchedulingDecision;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JobTimelineTest {

    private static CellLog log;
    private static String preempted;

    @BeforeAll
    static void findAPreemptedJob() {
        log = SimulatedLogs.shared("tiresias-las", 100);
        preempted = log.decisions().stream().map(d -> d.decision())
                .filter(d -> d.getType() == DecisionType.SUSPEND).map(SchedulingDecision::getJobId)
                .filter(id -> finishDecision(id) != null).findFirst().orElseThrow();
    }

    private static SchedulingDecision finishDecision(String jobId) {
        return log.decisions().stream().map(d -> d.decision())
                .filter(d -> d.getType() == DecisionType.FINISH && jobId.equals(d.getJobId()))
                .findFirst().orElse(null);
    }

    private static JobTimeline timeline() {
        return JobTimeline.of(log, preempted, CellReplayer.withBuiltInPolicies(), "test");
    }

    @Test
    void shouldListSubmissionStartPreemptionAndCompletionWithReasonsWhenTheJobWasPreempted() {
        JobTimeline t = timeline();

        List<String> what = t.entries().stream().map(TimelineEntry::what).toList();
        assertThat(what.get(0)).startsWith("submitted");
        assertThat(what).anyMatch(w -> w.startsWith("START attempt"));
        assertThat(what).anyMatch(w -> w.startsWith("SUSPEND (preemption)"));
        assertThat(what).anyMatch(w -> w.contains("reports COMPLETED"));
        assertThat(what.get(what.size() - 1)).startsWith("FINISH");
        assertThat(t.entries()).allMatch(e -> !e.reason().isBlank());
        assertThat(t.replay().allReproduced()).isTrue();
    }

    @Test
    void shouldShowTheAttainedServiceGrowingToTheRecordedTotalWhenTheJobFinishes() {
        JobTimeline t = timeline();

        double previous = 0;
        for (TimelineEntry e : t.entries()) {
            assertThat(e.attainedGpuSeconds()).isGreaterThanOrEqualTo(previous);
            previous = e.attainedGpuSeconds();
        }
        double recorded = Double.parseDouble(finishDecision(preempted).getDetails().get("attainedGpuSeconds"));
        TimelineEntry last = t.entries().get(t.entries().size() - 1);
        assertThat(recorded).isPositive();
        assertThat(last.attainedGpuSeconds()).isEqualTo(recorded);
        assertThat(last.state()).isEqualTo("FINISHED");
    }

    @Test
    void shouldRenderTheSameEntriesAsJsonAndAsATable() throws Exception {
        JobTimeline t = timeline();
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        ByteArrayOutputStream table = new ByteArrayOutputStream();

        TimelineWriter.json(t, new PrintStream(json, true, StandardCharsets.UTF_8));
        TimelineWriter.table(t, new PrintStream(table, true, StandardCharsets.UTF_8));

        JsonNode root = new ObjectMapper().readTree(json.toString(StandardCharsets.UTF_8));
        assertThat(root.get("jobId").asText()).isEqualTo(preempted);
        assertThat(root.get("entries")).hasSize(t.entries().size());
        assertThat(root.get("entries").get(0).get("what").asText()).startsWith("submitted");
        assertThat(root.get("replay").get("diverged").asLong()).isZero();
        String text = table.toString(StandardCharsets.UTF_8);
        assertThat(text.lines()).hasSize(t.entries().size() + 2);
        assertThat(text).contains("ATTAINED GPU-s").contains("SUSPEND (preemption)");
    }

    @Test
    void shouldFindNothingWhenTheJobIsUnknown() {
        JobTimeline t = JobTimeline.of(log, "no-such-job", CellReplayer.withBuiltInPolicies(), "test");

        assertThat(t.found()).isFalse();
    }
}
