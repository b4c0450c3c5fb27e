package io.quanta.cli.client;

import io.quanta.schemas.JobCancelRequested;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.topics.JobIds;
import io.quanta.topics.TopicSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The user-side client of a Quanta cluster, needing only Kafka and the schema registry: it produces submissions and
 * cancellations to {@code quanta.jobs.submissions} (idempotent, {@code acks=all}, waiting for the acknowledgement) and
 * reads job states from the compacted {@code quanta.jobs.status} topic and node states from the heartbeats.
 */
public final class JobClient {

    /** How long a read waits for the cluster's metadata before it reports the cluster unreachable. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(15);

    private final ClusterAccess access;
    private final Clock clock;
    private final Consumer<String> warnings;

    public JobClient(ClusterAccess access, Clock clock) {
        this(access, clock, w -> { });
    }

    /** @param warnings gets one line per read that skipped unreadable records */
    public JobClient(ClusterAccess access, Clock clock, Consumer<String> warnings) {
        this.access = access;
        this.clock = clock;
        this.warnings = warnings;
    }

    /** A new job id: {@code job-} and 12 random hex digits. */
    public static String newJobId() {
        return "job-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** A submission the cluster acknowledged: the job id and the submission time it carries. */
    public record Submitted(String jobId, Instant submittedAt) {
    }

    /**
     * Produces the submission of a valid spec and waits until the cluster has it.
     *
     * @throws IllegalArgumentException listing every problem when the spec is not valid (nothing is produced)
     */
    public Submitted submit(JobSpec spec) {
        List<String> problems = spec.problems();
        if (!problems.isEmpty()) {
            throw new InvalidJobException(problems);
        }
        String id = spec.jobId().orElseGet(JobClient::newJobId);
        Instant at = send(id, topicFor(Optional.ofNullable(spec.tenant())), now -> spec.toRequest(id, now));
        return new Submitted(id, at);
    }

    /**
     * Waits until the scheduler answered a submission: the first status of the job that carries its submission time
     * (QUEUED or later when accepted, REJECTED when refused).
     *
     * @return that status, or empty when none came within {@code timeout}
     */
    public Optional<JobStatus> answer(Submitted submitted, Duration timeout) {
        long at = submitted.submittedAt().toEpochMilli();
        Predicate<JobStatus> ours = s -> s.getSubmittedAt() != null && s.getSubmittedAt().toEpochMilli() == at;
        return follow(submitted.jobId(), s -> { }, ours, timeout).filter(ours);
    }

    /** Produces a cancellation of {@code jobId} and waits until the cluster has it. */
    public void cancel(String jobId, Optional<String> reason) {
        cancel(jobId, reason, Optional.empty());
    }

    /**
     * Produces a cancellation of {@code jobId} as {@code tenant} (the topic it goes to when tenants are authenticated
     * by topic) and waits until the cluster has it.
     */
    public void cancel(String jobId, Optional<String> reason, Optional<String> tenant) {
        requireValidId(jobId);
        send(jobId, topicFor(tenant), now -> JobRequest.newBuilder().setRequest(JobCancelRequested.newBuilder()
                .setJobId(jobId).setReason(reason.orElse(null)).setRequestedAt(now).build()).build());
    }

    /**
     * The topic a request goes to: the shared submissions topic, or with {@code scheduler.tenant.topics} the tenant's
     * own ({@code <submissions>.<tenant>}), which only that tenant's principal may write.
     */
    String topicFor(Optional<String> tenant) {
        String shared = access.topics().submissions().name();
        if (!tenantTopics()) {
            return shared;
        }
        String name = tenant.filter(t -> !t.isBlank()).orElseThrow(() -> new IllegalArgumentException(
                "tenants are authenticated by topic (scheduler.tenant.topics): name the tenant (--tenant)"));
        return new io.quanta.streams.router.TenantTopics(shared).topicOf(name);
    }

    /**
     * Whether tenants are authenticated by topic ({@code scheduler.tenant.topics}): a request is then sent as the
     * tenant whose topic it goes to, which only that tenant's principal may write.
     */
    public boolean tenantTopics() {
        Object on = access.config().originals().get("scheduler.tenant.topics");
        return on != null && Boolean.parseBoolean(on.toString().strip());
    }

    /** The latest status of one job, if the scheduler has published one. */
    public Optional<JobStatus> status(String jobId) {
        return Optional.ofNullable(read(Optional.of(jobId)).get(jobId));
    }

    /** The latest status of every job the status topic still holds, by job id. */
    public Map<String, JobStatus> statuses() {
        return read(Optional.empty());
    }

    /** The latest heartbeat of every node heard from since {@code since}, by node id. */
    public Map<String, NodeHeartbeat> heartbeatsSince(Instant since) {
        try (KafkaConsumer<String, byte[]> consumer = access.consumer(access.topics().heartbeats(),
                "quanta-cli-nodes")) {
            Map<String, NodeHeartbeat> latest = new java.util.TreeMap<>();
            TopicReader<NodeHeartbeat> reader = reader(consumer, access.topics().heartbeats());
            reader.readSince(since, (node, hb) -> {
                if (hb != null) {
                    latest.merge(node, hb, (a, b) -> b.getSentAt().isAfter(a.getSentAt()) ? b : a);
                }
            });
            reportSkipped(reader);
            return latest;
        }
    }

    /**
     * Follows the status of {@code jobId}: gives the current status (if any) and then every change to
     * {@code onChange}, until {@code done} holds for a status or {@code timeout} passes.
     *
     * @return the last status seen, if any
     */
    public Optional<JobStatus> follow(String jobId, Consumer<JobStatus> onChange, Predicate<JobStatus> done,
                                      Duration timeout) {
        try (KafkaConsumer<String, byte[]> consumer = access.consumer(access.topics().status(), "quanta-cli-watch")) {
            TopicReader<JobStatus> reader = reader(consumer, access.topics().status());
            TopicPartition partition = reader.partitionOf(jobId);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            JobStatus[] last = {null};
            reader.readToEnd(List.of(partition), (key, value) -> {
                if (jobId.equals(key)) {
                    last[0] = value;
                }
            });
            if (last[0] != null) {
                onChange.accept(last[0]);
            }
            Instant deadline = clock.instant().plus(timeout);
            while ((last[0] == null || !done.test(last[0])) && clock.instant().isBefore(deadline)) {
                reader.poll(Duration.ofMillis(250), record -> {
                    if (jobId.equals(record.key()) && record.value() != null && !record.value().equals(last[0])) {
                        last[0] = record.value();
                        onChange.accept(record.value());
                    }
                });
            }
            return Optional.ofNullable(last[0]);
        }
    }

    private Map<String, JobStatus> read(Optional<String> onlyKey) {
        try (KafkaConsumer<String, byte[]> consumer = access.consumer(access.topics().status(), "quanta-cli-status")) {
            TopicReader<JobStatus> reader = reader(consumer, access.topics().status());
            Map<String, JobStatus> latest = reader.latestByKey(onlyKey);
            reportSkipped(reader);
            return latest;
        }
    }

    private static <V> TopicReader<V> reader(KafkaConsumer<String, byte[]> consumer, TopicSpec<String, V> topic) {
        return new TopicReader<>(consumer, topic.name(), topic.valueSerde().deserializer(), READ_TIMEOUT);
    }

    private void reportSkipped(TopicReader<?> reader) {
        if (reader.skipped() > 0) {
            warnings.accept("quanta: skipped " + reader.skipped() + " unreadable record" + (reader.skipped() == 1
                    ? "" : "s") + " (not Quanta's Avro records; the scheduler dead-letters such input)");
        }
    }

    /**
     * Produces the request made at the moment of sending: the producer's metadata and the value schema's id are
     * fetched first, so that the request's own time ({@code submittedAt}) and the record's timestamp (the scheduler's
     * stream time) are the same instant, not seconds apart on a cold start.
     */
    private Instant send(String key, String topic, java.util.function.Function<Instant, JobRequest> request) {
        try (KafkaProducer<String, JobRequest> producer = access.producer(access.topics().submissions(),
                "quanta-cli")) {
            producer.partitionsFor(topic);
            access.topics().submissions().valueSerde().serializer().serialize(topic, request.apply(clock.instant()));
            Instant now = clock.instant();
            RecordMetadata ack = producer.send(new ProducerRecord<>(topic, null, now.toEpochMilli(), key,
                    request.apply(now))).get(45, TimeUnit.SECONDS);
            if (ack == null) {
                throw new IllegalStateException("no acknowledgement for " + key);
            }
            return now;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException("could not send " + key + " to " + topic
                    + ": " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no acknowledgement from the cluster at "
                    + access.config().bootstrapServers() + " within 45 s for " + key);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + key);
        }
    }

    /** Refuses (as bad input) a job id that no job can have, before anything is read or produced. */
    public static void requireValidId(String jobId) {
        if (!JobIds.isValid(jobId)) {
            throw new IllegalArgumentException("'" + jobId + "' is not a job id: job ids are " + JobIds.RULE);
        }
    }

    /** A spec with problems; {@link #problems()} lists them. */
    public static final class InvalidJobException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final List<String> problems;

        public InvalidJobException(List<String> problems) {
            super(String.join("; ", problems));
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }
}
