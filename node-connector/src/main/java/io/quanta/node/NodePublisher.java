package io.quanta.node;

import io.quanta.node.runner.NodeWorkDir;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything this node publishes, and how: job events, telemetry and heartbeats go through one {@link Outbox} to one
 * idempotent producer ({@link NodeClients}), signed with the node key when there is one. Job events are journalled on
 * disk first ({@link EventJournal}) and leave the journal once the broker acknowledged them. Events and telemetry name
 * this node's cell, so the scheduler routes them there whichever partition they land on (a connector in another
 * language partitions by its own client's rule).
 */
final class NodePublisher {

    private static final Logger LOG = LoggerFactory.getLogger(NodePublisher.class);

    private final String nodeId;
    private final String cellId;
    private final TopicCatalogue catalogue;
    private final byte[] signingKey;
    private final EventJournal journal;
    private final KafkaProducer<String, byte[]> producer;
    private final Outbox<Outbound<?>> outbox;
    private final AtomicInteger replaying = new AtomicInteger();

    /** Opens the journal in {@code workDir}, the producer and the outbox (its publisher thread). */
    NodePublisher(NodeSettings settings, QuantaConfig config, TopicCatalogue catalogue, NodeWorkDir workDir) {
        this.nodeId = settings.nodeId();
        this.cellId = settings.cellId();
        this.catalogue = catalogue;
        this.signingKey = settings.authKey().map(NodeSettings.NodeKey::bytes).orElse(null);
        this.journal = new EventJournal(workDir);
        this.producer = new KafkaProducer<>(NodeClients.producer(config, nodeId), new StringSerializer(),
                new ByteArraySerializer());
        this.outbox = new Outbox<>("quanta-node-outbox", this::send, settings.outboxCapacity(),
                item -> item.kind() == Outbound.Kind.TELEMETRY, Duration.ofMillis(100), Duration.ofSeconds(10));
    }

    /**
     * Queues the events an earlier run journalled and never saw acknowledged, ahead of everything else. This run's
     * heartbeats wait until they are acknowledged ({@link #journalReplayed()}): they carry a new epoch, and the
     * scheduler ignores events of an earlier epoch once it has seen a newer one.
     */
    void replayJournal() {
        List<EventJournal.Entry> entries = journal.recover();
        replaying.set(entries.size());
        for (EventJournal.Entry entry : entries) {
            JobEvent event = entry.event();
            outbox.add(new Outbound<>(Outbound.Kind.EVENT, catalogue.events(), event.getJobId(), event,
                    event.getAt(), () -> {
                        journal.delivered(entry);
                        replaying.decrementAndGet();
                    }));
        }
    }

    /** Whether the broker acknowledged every event {@link #replayJournal()} found. */
    boolean journalReplayed() {
        return replaying.get() <= 0;
    }

    /** Journals the event (fsync) and queues it; it leaves the journal once the broker acknowledged it. */
    void event(JobEvent unstamped) {
        JobEvent event = JobEvent.newBuilder(unstamped).setCellId(cellId).build();
        EventJournal.Entry entry = journal.append(event);
        outbox.add(new Outbound<>(Outbound.Kind.EVENT, catalogue.events(), event.getJobId(), event, event.getAt(),
                () -> journal.delivered(entry)));
    }

    /** Queues a telemetry window (dropped first when the outbox is full). */
    void telemetry(JobTelemetry unstamped) {
        JobTelemetry telemetry = JobTelemetry.newBuilder(unstamped).setCellId(cellId).build();
        outbox.add(new Outbound<>(Outbound.Kind.TELEMETRY, catalogue.telemetry(), telemetry.getJobId(), telemetry,
                telemetry.getReportedAt()));
    }

    /** Makes {@code beat} the heartbeat to send next, replacing one not sent yet. */
    void heartbeat(NodeHeartbeat beat, Runnable onAcknowledged) {
        outbox.offerLatest(new Outbound<>(Outbound.Kind.HEARTBEAT, catalogue.heartbeats(), nodeId, beat,
                beat.getSentAt(), onAcknowledged));
    }

    /** Job events journalled and not yet acknowledged by the broker. */
    int unacknowledgedEvents() {
        return journal.pending();
    }

    /** Delivers what is queued within {@code timeout}, then closes the outbox and the producer. */
    void close(Duration timeout) {
        outbox.close(timeout);
        producer.close(timeout);
    }

    /**
     * Hands a record to the producer. A record the producer could not even append (metadata unavailable within
     * max.block.ms, buffer full) comes back as an already-failed future: rethrown, so the outbox retries it. Appended
     * records are retried by the idempotent producer itself until delivered.
     */
    private void send(Outbound<?> item) throws Exception {
        Future<RecordMetadata> sent = producer.send(item.toProducerRecord(signingKey), (metadata, error) -> {
            if (error != null) {
                LOG.warn("{} not delivered: {}", item, error.toString());
            } else {
                item.onDelivered().run();
            }
        });
        if (sent.isDone()) {
            try {
                sent.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }
}
