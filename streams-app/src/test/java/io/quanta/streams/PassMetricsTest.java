package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.streams.cell.CellSchedulerProcessor;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/** The scheduler publishes how many scheduling passes it ran and how long they took, next to Kafka Streams' own. */
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

    private static Map<String, Double> passMetrics(SchedulerDriver driver) {
        Map<MetricName, ? extends Metric> all = driver.driver().metrics();
        return all.entrySet().stream()
                .filter(e -> e.getKey().group().equals(GROUP)
                        && e.getKey().name().startsWith(CellSchedulerProcessor.PASS_OPERATION))
                .collect(Collectors.toMap(e -> e.getKey().name(),
                        e -> ((Number) e.getValue().metricValue()).doubleValue()));
    }
}
