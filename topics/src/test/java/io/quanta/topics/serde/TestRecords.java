package io.quanta.topics.serde;

import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobTelemetry;
import java.time.Instant;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** Sample records for serde tests. */
final class TestRecords {

    static final Instant AT = Instant.parse("2025-01-02T03:04:05.678Z");

    /** JobTelemetry as it looked before windowMillis and gpuMemoryUsedMiB were added (an older writer). */
    static final Schema TELEMETRY_V0 = new Schema.Parser().parse("""
            {"type": "record", "name": "JobTelemetry", "namespace": "io.quanta.schemas", "fields": [
              {"name": "jobId", "type": "string"},
              {"name": "attempt", "type": "int"},
              {"name": "nodeId", "type": "string"},
              {"name": "minibatchesDone", "type": "long"},
              {"name": "minibatchesPerSecond", "type": "double"},
              {"name": "reportedAt", "type": {"type": "long", "logicalType": "timestamp-millis"}}
            ]}""");

    private TestRecords() {
    }

    static JobTelemetry telemetry(String jobId) {
        return JobTelemetry.newBuilder().setJobId(jobId).setAttempt(2).setNodeId("node-1").setMinibatchesDone(1234)
                .setMinibatchesPerSecond(3.5).setWindowMillis(10_000).setGpuMemoryUsedMiB(2048).setReportedAt(AT)
                .build();
    }

    /** A record written with {@link #TELEMETRY_V0}. */
    static GenericRecord oldTelemetry(String jobId) {
        GenericRecord old = new GenericData.Record(TELEMETRY_V0);
        old.put("jobId", jobId);
        old.put("attempt", 1);
        old.put("nodeId", "n");
        old.put("minibatchesDone", 10L);
        old.put("minibatchesPerSecond", 2.0);
        old.put("reportedAt", AT.toEpochMilli());
        return old;
    }

    static JobStatus status(String jobId) {
        return JobStatus.newBuilder().setJobId(jobId).setState(JobState.RUNNING).setUpdatedAt(AT).build();
    }
}
