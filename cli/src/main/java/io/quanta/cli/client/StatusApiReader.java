package io.quanta.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.topics.serde.AvroTrust;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads job statuses through a scheduler's status API ({@code scheduler.status.url}): one HTTP request instead of a
 * Kafka consumer reading the status topic, which is what makes {@code quanta status JOB} and {@code quanta queue}
 * answer fast. The API serves the jobs the cells hold (active ones, and finished ones for
 * {@code scheduler.finished.retention.hours}) in the same fields as the topic's {@link JobStatus}. Every answer that
 * is not a found job or list (no such job here, a token required, the API not up, a body that is not a job view or
 * is larger than {@link #MAX_BODY_BYTES}, e.g. a wrong {@code scheduler.status.url}) is empty: the caller then reads
 * the topic, which keeps every job's last status.
 */
public final class StatusApiReader {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Largest answer read (a list of 100,000 job views is about 60 MB); a larger one is not read at all. */
    static final int MAX_BODY_BYTES = 64 << 20;

    private final URI base;
    private final Duration timeout;

    public StatusApiReader(URI base, Duration timeout) {
        AvroTrust.trustQuantaSchemas();
        this.base = URI.create(base.toString().replaceAll("/+$", "") + "/");
        this.timeout = timeout;
    }

    /** The job's status as the scheduler holds it now, or empty (not held there, or the API did not answer). */
    public Optional<JobStatus> job(String jobId) {
        return get("jobs/" + URLEncoder.encode(jobId, StandardCharsets.UTF_8).replace("+", "%20"))
                .flatMap(StatusApiReader::statusOrEmpty);
    }

    /** Every job the scheduler holds in one of {@code states}, or empty when the API did not answer. */
    public Optional<List<JobStatus>> jobs(Set<JobState> states) {
        String query = states.isEmpty() ? "" : "?state=" + states.stream().map(Enum::name).sorted()
                .collect(Collectors.joining(","));
        return get("jobs" + query).filter(JsonNode::isArray).flatMap(array -> {
            List<JobStatus> out = new ArrayList<>();
            for (JsonNode view : array) {
                Optional<JobStatus> status = statusOrEmpty(view);
                if (status.isEmpty()) {
                    return Optional.empty();
                }
                out.add(status.get());
            }
            return Optional.of(out);
        });
    }

    private Optional<JsonNode> get(String path) {
        HttpURLConnection connection = null;
        try {
            connection = (HttpURLConnection) base.resolve(path).toURL().openConnection();
            connection.setConnectTimeout((int) timeout.toMillis());
            connection.setReadTimeout((int) timeout.toMillis());
            connection.setRequestProperty("Accept", "application/json");
            if (connection.getResponseCode() != HttpURLConnection.HTTP_OK) {
                return Optional.empty();
            }
            try (InputStream body = connection.getInputStream()) {
                byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
                return bytes.length > MAX_BODY_BYTES ? Optional.empty() : Optional.of(JSON.readTree(bytes));
            }
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        } finally {
            if (connection != null) {
                connection.disconnect();
            }
        }
    }

    /** {@link #status}, or empty for a view that is not one (a field missing or of another kind). */
    private static Optional<JobStatus> statusOrEmpty(JsonNode view) {
        try {
            return Optional.of(status(view));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** A job view of the status API ({@code StatusViews.JobView}) as the topic's record. */
    static JobStatus status(JsonNode view) {
        List<GpuRef> placement = new ArrayList<>();
        view.path("placement").forEach(gpu -> {
            String text = gpu.asText();
            int slash = text.lastIndexOf('/');
            placement.add(new GpuRef(text.substring(0, slash), Integer.parseInt(text.substring(slash + 1))));
        });
        return JobStatus.newBuilder()
                .setJobId(view.path("jobId").asText())
                .setTenant(view.path("tenant").asText(""))
                .setCellId(text(view, "cellId"))
                .setState(JobState.valueOf(view.path("state").asText()))
                .setAttempt(view.path("attempt").asInt())
                .setNumGpus(view.path("numGpus").asInt())
                .setQueueLevel(view.path("queueLevel").asInt())
                .setAttainedGpuSeconds(view.path("attainedGpuSeconds").asDouble())
                .setPlacement(placement)
                .setSubmittedAt(instant(view, "submittedAt"))
                .setQueuedSince(instant(view, "queuedSince"))
                .setFirstStartedAt(instant(view, "firstStartedAt"))
                .setLastStartedAt(instant(view, "lastStartedAt"))
                .setFinishedAt(instant(view, "finishedAt"))
                .setPreemptions(view.path("preemptions").asInt())
                .setMigrations(view.path("migrations").asInt())
                .setReason(view.path("reason").asText(""))
                .setUpdatedAt(Optional.ofNullable(instant(view, "asOf")).orElse(Instant.EPOCH))
                .build();
    }

    private static String text(JsonNode view, String field) {
        JsonNode value = view.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Instant instant(JsonNode view, String field) {
        String value = text(view, field);
        return value == null ? null : Instant.parse(value);
    }
}
