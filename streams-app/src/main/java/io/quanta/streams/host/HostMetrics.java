package io.quanta.streams.host;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * The metrics of hosted processors: sensors on a private Kafka {@link Metrics} registry that nothing reports, so a
 * processor that records its own metrics runs unchanged outside Kafka Streams.
 */
final class HostMetrics implements StreamsMetrics {

    private final Metrics metrics = new Metrics();

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return metrics.metrics();
    }

    @Override
    public Sensor addLatencyRateTotalSensor(String scopeName, String entityName, String operationName,
                                            Sensor.RecordingLevel recordingLevel, String... tags) {
        return addSensor(scopeName + "." + entityName + "." + operationName + "-latency", recordingLevel);
    }

    @Override
    public Sensor addRateTotalSensor(String scopeName, String entityName, String operationName,
                                     Sensor.RecordingLevel recordingLevel, String... tags) {
        return addSensor(scopeName + "." + entityName + "." + operationName + "-rate", recordingLevel);
    }

    @Override
    public Sensor addSensor(String name, Sensor.RecordingLevel recordingLevel) {
        return metrics.sensor(name, recordingLevel);
    }

    @Override
    public Sensor addSensor(String name, Sensor.RecordingLevel recordingLevel, Sensor... parents) {
        return metrics.sensor(name, recordingLevel, parents);
    }

    @Override
    public void removeSensor(Sensor sensor) {
        metrics.removeSensor(sensor.name());
    }
}
