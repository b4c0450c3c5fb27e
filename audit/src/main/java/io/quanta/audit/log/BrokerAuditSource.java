package io.quanta.audit.log;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.MalformedRecordException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * An {@link AuditSource} over the live topics: a plain consumer (no group, nothing committed) reads the cell's
 * partition of {@code quanta.cells.inbox} and of {@code quanta.scheduler.decisions} from the beginning of the
 * retained log to the last stable offset, {@code read_committed} (records of aborted transactions were never seen by
 * the scheduler). Decisions are read before the inbox, so every inbox record a decision refers to is in the inbox
 * read. The cell's partition is the one the default partitioner gives its key (murmur2), as the topology
 * writes it.
 */
public final class BrokerAuditSource implements AuditSource {

    private static final Duration POLL = Duration.ofMillis(200);

    private final TopicCatalogue topics;
    private final Map<String, Object> clientProperties;
    private final Duration timeout;

    /**
     * @param topics           the catalogue (topic names and the registry-backed serdes)
     * @param clientProperties Kafka client settings (bootstrap.servers, security); consumer settings are added
     * @param timeout          how long reading may go without progress before it fails
     */
    public BrokerAuditSource(TopicCatalogue topics, Map<String, Object> clientProperties, Duration timeout) {
        this.topics = topics;
        this.clientProperties = Map.copyOf(clientProperties);
        this.timeout = timeout;
    }

    /** A source for the cluster and registry of {@code config}. */
    public static BrokerAuditSource connect(QuantaConfig config) {
        return new BrokerAuditSource(TopicCatalogue.from(config, AvroSerdeFactory.from(config)),
                config.kafkaClientProperties(), Duration.ofSeconds(60));
    }

    @Override
    public CellLog cell(String cellId) {
        String inboxTopic = topics.inbox().name();
        String decisionsTopic = topics.decisions().name();
        Deserializer<CellInput> inputs = topics.inbox().valueSerde().deserializer();
        Deserializer<SchedulingDecision> decoded = topics.decisions().valueSerde().deserializer();
        List<InboxRecord> inbox = new ArrayList<>();
        List<RecordedDecision> decisions = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            int inboxPartition = partitionOf(consumer, inboxTopic, cellId);
            int decisionsPartition = partitionOf(consumer, decisionsTopic, cellId);
            // decisions first: every inbox record a recorded decision refers to is then in the inbox read
            readPartition(consumer, new TopicPartition(decisionsTopic, decisionsPartition), r -> {
                if (cellId.equals(key(r))) {
                    decisions.add(new RecordedDecision(r.offset(), r.timestamp(),
                            decoded.deserialize(r.topic(), r.value())));
                }
            });
            readPartition(consumer, new TopicPartition(inboxTopic, inboxPartition), r -> {
                if (cellId.equals(key(r))) {
                    inbox.add(inboxRecord(r, inputs));
                }
            });
            return new CellLog(cellId, inboxTopic, inboxPartition, inbox, decisionsTopic, decisionsPartition,
                    decisions);
        }
    }

    @Override
    public List<String> cells() {
        TreeSet<String> cells = new TreeSet<>();
        scanInbox(r -> {
            String key = key(r);
            if (key != null) {
                cells.add(key);
            }
        });
        return List.copyOf(cells);
    }

    @Override
    public Optional<String> cellOfJob(String jobId) {
        Deserializer<CellInput> inputs = topics.inbox().valueSerde().deserializer();
        byte[] needle = jobId.getBytes(StandardCharsets.UTF_8);
        String[] found = {null};
        scanInbox(r -> {
            if (found[0] == null && r.value() != null && contains(r.value(), needle)) {
                InboxRecord record = inboxRecord(r, inputs);
                if (JobCells.isSubmission(record, jobId)) {
                    found[0] = record.input().getCellId();
                }
            }
        });
        return Optional.ofNullable(found[0]);
    }

    @Override
    public String describe() {
        return "topics " + topics.inbox().name() + " and " + topics.decisions().name() + " at "
                + clientProperties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    @Override
    public void close() {
        // a consumer is opened per read
    }

    private void scanInbox(Consumer<ConsumerRecord<byte[], byte[]>> each) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            for (PartitionInfo p : partitions(consumer, topics.inbox().name())) {
                readPartition(consumer, new TopicPartition(p.topic(), p.partition()), each);
            }
        }
    }

    private static InboxRecord inboxRecord(ConsumerRecord<byte[], byte[]> r, Deserializer<CellInput> inputs) {
        try {
            return InboxRecord.of(r.offset(), r.timestamp(), key(r), inputs.deserialize(r.topic(), r.value()));
        } catch (MalformedRecordException e) {
            return InboxRecord.undecodable(r.offset(), r.timestamp(), key(r), r.value());
        }
    }

    private void readPartition(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp,
                               Consumer<ConsumerRecord<byte[], byte[]>> each) {
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        long lastProgress = System.nanoTime();
        long position = consumer.position(tp);
        while (position < end) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL).records(tp)) {
                if (r.offset() < end) {
                    each.accept(r);
                }
            }
            long next = consumer.position(tp);
            if (next > position) {
                position = next;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > timeout.toNanos()) {
                throw new IllegalStateException("reading " + tp + " made no progress for " + timeout + " at offset "
                        + position + " of " + end);
            }
        }
    }

    private static int partitionOf(KafkaConsumer<byte[], byte[]> consumer, String topic, String key) {
        int count = partitions(consumer, topic).size();
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % count;
    }

    private static List<PartitionInfo> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<PartitionInfo> partitions = consumer.partitionsFor(topic);
        if (partitions == null || partitions.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist (run `quanta topics apply`?)");
        }
        return partitions;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "quanta-audit");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static String key(ConsumerRecord<byte[], byte[]> r) {
        return r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
