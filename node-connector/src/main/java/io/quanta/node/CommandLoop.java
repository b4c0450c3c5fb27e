package io.quanta.node;

import io.quanta.schemas.NodeCommand;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.retry.Backoff;
import io.quanta.topics.serde.RegistryUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node connector's command loop (its own thread): assigns the one partition of the commands topic that the node
 * id maps to under the default partitioner ({@link NodePartition}), starting at the end, then hands every command keyed
 * by this node to the handler. A command that cannot be read while the schema registry is down is read again with
 * backoff, never skipped; an unreadable one is skipped with an error. {@link #start} runs it on a thread of its own,
 * {@link #stop} ends it, {@link #close} ends it and waits for its thread.
 */
final class CommandLoop implements Runnable, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CommandLoop.class);
    private static final Duration KAFKA_RETRY = Duration.ofSeconds(1);
    private static final Duration MAX_REGISTRY_BACKOFF = Duration.ofSeconds(30);

    private final String nodeId;
    private final Map<String, Object> consumerProperties;
    private final TopicSpec<String, NodeCommand> commands;
    private final Consumer<NodeCommand> handler;
    private final Runnable onReady;
    private final Consumer<Throwable> onFailure;
    private final Object pauseLock = new Object();
    private final Backoff registryBackoff = new Backoff(KAFKA_RETRY, MAX_REGISTRY_BACKOFF);
    private final Thread thread = new Thread(this, "quanta-node-commands");
    private volatile KafkaConsumer<String, NodeCommand> consumer;
    private volatile boolean running = true;

    /**
     * @param onReady   called once the partition is assigned and its position known
     * @param onFailure called when the loop stops on an unexpected error
     */
    CommandLoop(String nodeId, Map<String, Object> consumerProperties, TopicSpec<String, NodeCommand> commands,
                Consumer<NodeCommand> handler, Runnable onReady, Consumer<Throwable> onFailure) {
        this.nodeId = nodeId;
        this.consumerProperties = consumerProperties;
        this.commands = commands;
        this.handler = handler;
        this.onReady = onReady;
        this.onFailure = onFailure;
    }

    @Override
    public void run() {
        try (KafkaConsumer<String, NodeCommand> c = new KafkaConsumer<>(consumerProperties, new StringDeserializer(),
                commands.valueSerde().deserializer())) {
            consumer = c;
            if (!running || !assignOwnPartition(c)) {
                return;
            }
            onReady.run();
            while (running) {
                pollOnce(c);
            }
        } catch (WakeupException e) {
            LOG.debug("command consumer woken up for shutdown");
        } catch (RuntimeException | Error e) {
            onFailure.accept(e);
        } finally {
            consumer = null;
        }
    }

    /** Runs the loop on its own thread, {@code quanta-node-commands}. */
    void start() {
        thread.start();
    }

    /** Ends the loop ({@link #stop}) and waits up to 30 s for the thread {@link #start} started to end. */
    @Override
    public void close() {
        stop();
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the loop: wakes it from a pause or a poll; the thread then closes the consumer and returns. */
    void stop() {
        running = false;
        synchronized (pauseLock) {
            pauseLock.notifyAll();
        }
        KafkaConsumer<String, NodeCommand> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    private boolean assignOwnPartition(KafkaConsumer<String, NodeCommand> c) {
        String topic = commands.name();
        while (running) {
            try {
                List<PartitionInfo> partitions = c.partitionsFor(topic, Duration.ofSeconds(10));
                if (partitions == null || partitions.isEmpty()) {
                    LOG.warn("topic {} does not exist (yet): create the topics with 'quanta topics apply'", topic);
                } else {
                    TopicPartition own = new TopicPartition(topic, NodePartition.of(nodeId, partitions.size()));
                    c.assign(List.of(own));
                    c.seekToEnd(List.of(own));
                    long position = c.position(own, Duration.ofSeconds(10));
                    LOG.info("node {} reads commands from {} at offset {}", nodeId, own, position);
                    return true;
                }
            } catch (WakeupException e) {
                throw e;
            } catch (KafkaException e) {
                LOG.warn("cannot reach the commands topic {} yet: {}", topic, e.toString());
            }
            pause(KAFKA_RETRY);
        }
        return false;
    }

    private void pollOnce(KafkaConsumer<String, NodeCommand> c) {
        try {
            for (ConsumerRecord<String, NodeCommand> record : c.poll(Duration.ofMillis(500))) {
                dispatch(record);
            }
            registryBackoff.reset();
        } catch (RecordDeserializationException e) {
            if (RegistryUnavailableException.isCause(e)) {
                // the command may be fine: read it again once the registry answers, never skip it
                Duration delay = registryBackoff.next();
                LOG.warn("cannot read the command at {} offset {} while the schema registry is unavailable; "
                        + "retrying in {} ms: {}", e.topicPartition(), e.offset(), delay.toMillis(),
                        e.getMessage());
                c.seek(e.topicPartition(), e.offset());
                pause(delay);
                return;
            }
            LOG.error("skipping unreadable command at {} offset {}: {}", e.topicPartition(), e.offset(),
                    e.getMessage());
            c.seek(e.topicPartition(), e.offset() + 1);
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } catch (KafkaException e) {
            LOG.warn("polling commands failed, retrying: {}", e.toString());
            pause(KAFKA_RETRY);
        }
    }

    private void dispatch(ConsumerRecord<String, NodeCommand> record) {
        if (!nodeId.equals(record.key()) || record.value() == null) {
            return;
        }
        try {
            handler.accept(record.value());
        } catch (RuntimeException e) {
            LOG.error("command {} at offset {} failed", record.value().getCommandId(), record.offset(), e);
        }
    }

    private void pause(Duration d) {
        synchronized (pauseLock) {
            try {
                pauseLock.wait(d.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }
    }
}
