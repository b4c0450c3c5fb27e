package io.quanta.node.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.node.runner.AttemptId;
import io.quanta.schemas.JobTelemetry;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TelemetryAggregatorTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final AttemptId J1 = new AttemptId("j1", 1);

    @Test
    void shouldSumReportsAndComputeTheRateOverTheWindow() {
        TelemetryAggregator aggregator = new TelemetryAggregator("n1", T0);
        aggregator.record(TelemetryReport.parse("{\"job\":\"j1\",\"attempt\":1,\"minibatches\":1}"), T0);
        aggregator.record(TelemetryReport.parse("{\"job\":\"j1\",\"attempt\":1,\"minibatches\":19,"
                + "\"memory_mib\":2048}"), T0.plusSeconds(5));

        List<JobTelemetry> out = aggregator.flush(T0.plusSeconds(10));

        assertThat(out).singleElement().satisfies(t -> {
            assertThat(t.getJobId()).isEqualTo("j1");
            assertThat(t.getAttempt()).isEqualTo(1);
            assertThat(t.getNodeId()).isEqualTo("n1");
            assertThat(t.getMinibatchesDone()).isEqualTo(20);
            assertThat(t.getMinibatchesPerSecond()).isEqualTo(2.0);
            assertThat(t.getWindowMillis()).isEqualTo(10_000);
            assertThat(t.getGpuMemoryUsedMiB()).isEqualTo(2048);
            assertThat(t.getReportedAt()).isEqualTo(T0.plusSeconds(10));
        });
    }

    @Test
    void shouldTakeTheJobsOwnTotalAndCountOnlyNewMinibatchesInTheRateWhenResumed() {
        TelemetryAggregator aggregator = new TelemetryAggregator("n1", T0);
        aggregator.record(TelemetryReport.parse("{\"job\":\"j1\",\"attempt\":2,\"minibatches\":4,\"done\":504}"),
                T0.plusSeconds(1));

        JobTelemetry t = aggregator.flush(T0.plusSeconds(3)).get(0);

        assertThat(t.getMinibatchesDone()).isEqualTo(504);
        assertThat(t.getMinibatchesPerSecond()).as("rate since the attempt's first report").isEqualTo(2.0);
    }

    @Test
    void shouldEmitNothingForAnAttemptThatReportedNothingInTheWindow() {
        TelemetryAggregator aggregator = new TelemetryAggregator("n1", T0);
        aggregator.record(TelemetryReport.parse("{\"job\":\"j1\",\"attempt\":1,\"minibatches\":3}"), T0);
        aggregator.flush(T0.plusSeconds(10));

        assertThat(aggregator.flush(T0.plusSeconds(20))).isEmpty();
        aggregator.record(TelemetryReport.parse("{\"job\":\"j1\",\"attempt\":1,\"minibatches\":5}"),
                T0.plusSeconds(25));
        JobTelemetry next = aggregator.flush(T0.plusSeconds(30)).get(0);
        assertThat(next.getMinibatchesDone()).isEqualTo(8);
        assertThat(next.getMinibatchesPerSecond()).isEqualTo(0.5);
    }

    @Test
    void shouldUseRunnerTotalsWithTheFirstAsBaselineWhenSimulated() {
        TelemetryAggregator aggregator = new TelemetryAggregator("n1", T0);
        aggregator.recordTotal(J1, 500, OptionalInt.empty(), T0);
        aggregator.recordTotal(J1, 530, OptionalInt.of(100), T0.plusSeconds(10));

        JobTelemetry t = aggregator.flush(T0.plusSeconds(10)).get(0);

        assertThat(t.getMinibatchesDone()).isEqualTo(530);
        assertThat(t.getMinibatchesPerSecond()).isEqualTo(3.0);
        assertThat(t.getGpuMemoryUsedMiB()).isEqualTo(100);
    }

    @Test
    void shouldDropAnAttemptWhenForgotten() {
        TelemetryAggregator aggregator = new TelemetryAggregator("n1", T0);
        aggregator.record(TelemetryReport.parse("{\"job\":\"j1\",\"attempt\":1,\"minibatches\":3}"), T0);

        aggregator.forget(J1);

        assertThat(aggregator.flush(T0.plusSeconds(1))).isEmpty();
        assertThat(aggregator.totalOf(J1)).isEmpty();
    }

    @Test
    void shouldRejectReportsThatBreakTheProtocol() {
        assertThatThrownBy(() -> TelemetryReport.parse("not json")).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> TelemetryReport.parse("[1]")).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> TelemetryReport.parse("{\"attempt\":1}")).hasMessageContaining("\"job\"");
        assertThatThrownBy(() -> TelemetryReport.parse("{\"job\":\"j\",\"attempt\":\"1\"}"))
                .hasMessageContaining("\"attempt\"");
        assertThatThrownBy(() -> TelemetryReport.parse("{\"job\":\"j\",\"attempt\":1,\"minibatches\":-1}"))
                .hasMessageContaining("non-negative");
    }

    @Test
    void shouldIgnoreUnknownFieldsOfAReport() {
        TelemetryReport report = TelemetryReport.parse("{\"job\":\"j\",\"attempt\":3,\"loss\":0.5}");

        assertThat(report.attempt()).isEqualTo(new AttemptId("j", 3));
        assertThat(report.minibatches()).isZero();
    }
}
