package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.telemetry;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobEventType;
import io.quanta.streams.cell.CellSchedulerProcessor;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/**
 * The scheduler publishes how many scheduling passes it ran and how long they took, and how much telemetry it could
 * not use, next to Kafka Streams' own metrics.
 */
class PassMetricsTest {

    private static final String GROUP = "stream-" + CellSchedulerProcessor.METRICS_SCOPE + "-metrics";

    @Test
    void shouldCountEveryPassAndMeasureItsDurationWhenJobsArrive() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", SchedulerDriver.CELL, 2, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));
            driver.submit(job("j2", 1).build(), at(2));

            Map<String, Double> metrics = passMetrics(driver);
            long passes = driver.meta(SchedulerDriver.CELL).passes();

            assertThat(passes).isGreaterThanOrEqualTo(2);
            assertThat(metrics).containsEntry("scheduling-pass-total", (double) passes);
            assertThat(metrics.get("scheduling-pass-latency-max")).isPositive();
            assertThat(metrics.get("scheduling-pass-latency-avg")).isPositive()
                    .isLessThanOrEqualTo(metrics.get("scheduling-pass-latency-max"));
        }
    }

    @Test
    void shouldCountTelemetryItCannotUseInAMetricAsInTheCellSummary() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", SchedulerDriver.CELL, 2, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));
            driver.event(event("j1", 1, "n1", JobEventType.STARTED, at(2)));

            driver.telemetry(telemetry("j1", 1, "n1", 3.0, at(3)));
            driver.telemetry(telemetry("j1", 7, "n1", 3.0, at(4)));
            driver.telemetry(telemetry("j1", 1, "n1", Double.NaN, at(5)));
            driver.telemetry(telemetry("j1", 1, "n1", -1.0, at(6)));

            Map<String, Double> metrics = metrics(driver, CellSchedulerProcessor.DROPPED_TELEMETRY_OPERATION);
            assertThat(driver.meta(SchedulerDriver.CELL).droppedTelemetry()).isEqualTo(3);
            assertThat(metrics).containsEntry("dropped-telemetry-total", 3.0);
            assertThat(metrics.get("dropped-telemetry-rate")).isPositive();
        }
    }

    private static Map<String, Double> passMetrics(SchedulerDriver driver) {
        return metrics(driver, CellSchedulerProcessor.PASS_OPERATION);
    }

    private static Map<String, Double> metrics(SchedulerDriver driver, String operation) {
        Map<MetricName, ? extends Metric> all = driver.driver().metrics();
        return all.entrySet().stream()
                .filter(e -> e.getKey().group().equals(GROUP)
                        && e.getKey().name().startsWith(operation))
                .collect(Collectors.toMap(e -> e.getKey().name(),
                        e -> ((Number) e.getValue().metricValue()).doubleValue()));
    }
}
