package io.quanta.node.telemetry;

import com.fasterxml.jackson.databind.JsonNode;
import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.Json;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One progress report from a job, one JSON object per line:
 * {@code {"job":"j1","attempt":1,"minibatches":1,"done":1201,"memory_mib":1234}}.
 * {@code job} and {@code attempt} are required; {@code minibatches} (default 0) counts the minibatches done since the
 * job's previous report; {@code done}, optional, is the job's own total including before a resume; {@code memory_mib},
 * optional, is the GPU memory it uses. Unknown fields are ignored.
 *
 * @param attempt the reporting attempt
 * @param minibatches minibatches since the previous report, {@code >= 0}
 * @param done the job's total, when it says
 * @param memoryMiB GPU memory in use, when it says
 */
public record TelemetryReport(AttemptId attempt, long minibatches, OptionalLong done, OptionalInt memoryMiB) {

    public TelemetryReport {
        Objects.requireNonNull(attempt, "attempt");
        if (minibatches < 0) {
            throw new IllegalArgumentException("minibatches must be >= 0, got " + minibatches);
        }
    }

    /**
     * Parses one line.
     *
     * @throws IllegalArgumentException with the reason when the line is not a valid report
     */
    public static TelemetryReport parse(String line) {
        JsonNode node;
        try {
            node = Json.mapper().readTree(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        JsonNode job = node.get("job");
        JsonNode attempt = node.get("attempt");
        if (job == null || !job.isTextual() || job.asText().isEmpty()) {
            throw new IllegalArgumentException("missing \"job\" (a non-empty string)");
        }
        if (attempt == null || !attempt.canConvertToInt() || !attempt.isIntegralNumber()) {
            throw new IllegalArgumentException("missing \"attempt\" (an integer)");
        }
        long minibatches = integer(node, "minibatches").orElse(0L);
        Long done = integer(node, "done").orElse(null);
        Long memory = integer(node, "memory_mib").orElse(null);
        return new TelemetryReport(new AttemptId(job.asText(), attempt.asInt()), minibatches,
                done == null ? OptionalLong.empty() : OptionalLong.of(done),
                memory == null ? OptionalInt.empty() : OptionalInt.of((int) Math.min(Integer.MAX_VALUE, memory)));
    }

    private static java.util.Optional<Long> integer(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return java.util.Optional.empty();
        }
        if (!value.isIntegralNumber() || value.asLong() < 0) {
            throw new IllegalArgumentException("\"" + field + "\" must be a non-negative integer, got " + value);
        }
        return java.util.Optional.of(value.asLong());
    }
}
