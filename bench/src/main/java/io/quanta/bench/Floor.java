package io.quanta.bench;

import io.quanta.chaos.infra.ChildJvm;
import io.quanta.embedded.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The floor ({@link FloorTopology}) in a process of its own on the same broker, with its driver side: topics of
 * {@code partitions} partitions, a producer like the submitter's (measured records) and a batched one (background
 * records), and a {@code read_committed} reader of the output that notes when each record arrived.
 */
final class Floor implements AutoCloseable {

    /** Bytes per floor record: about an encoded submission. */
    static final int RECORD_BYTES = 200;

    private final String input;
    private final String inbox;
    private final String output;
    private final String applicationId;
    private final ChildJvm process;
    private final KafkaProducer<String, byte[]> measured;
    private final KafkaProducer<String, byte[]> background;
    private final KafkaConsumer<String, byte[]> reader;
    private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    private final Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
    private final Thread readerThread;
    private final Thread backgroundThread = new Thread(this::backgroundLoop, "floor-background");
    private volatile boolean closed;
    private volatile double backgroundRate;

    Floor(String bootstrap, Path runDir, String name, int partitions, long commitMs, long pollMs) {
        this.input = name + ".in";
        this.inbox = name + ".inbox";
        this.output = name + ".out";
        this.applicationId = name + "-floor";
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(input, partitions, (short) 1),
                    new NewTopic(inbox, partitions, (short) 1), new NewTopic(output, partitions, (short) 1)))
                    .all().get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot create the floor's topics", e);
        }
        Path log = runDir.resolve(name + "-floor.log");
        this.process = ChildJvm.startMain("floor", FloorTopology.class.getName(), List.of("-Xms128m", "-Xmx512m"),
                List.of(bootstrap, applicationId, input, inbox, output, Long.toString(commitMs),
                        Long.toString(pollMs), runDir.resolve(name + "-floor-state").toString()), log);
        Await.until("floor topology RUNNING (" + log + ")", Duration.ofMinutes(3), () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("floor exited: " + process.tail(30));
            }
            try {
                return Files.readString(log).contains("floor state RUNNING");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        this.measured = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(),
                new ByteArraySerializer());
        this.background = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024), new StringSerializer(), new ByteArraySerializer());
        this.reader = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000), new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> out = reader.partitionsFor(output).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        reader.assign(out);
        reader.seekToBeginning(out);
        this.readerThread = new Thread(this::read, "floor-reader");
        readerThread.start();
        backgroundThread.setDaemon(true);
        backgroundThread.start();
    }

    private void read() {
        while (!closed) {
            var polled = reader.poll(Duration.ofMillis(5));
            long now = System.nanoTime();
            polled.forEach(r -> arrivedAt.putIfAbsent(r.key(), now));
        }
    }

    /** Sends a measured record (like a submission). */
    void send(String id) {
        sentAt.put(id, System.nanoTime());
        measured.send(new ProducerRecord<>(input, id, FloorTopology.value(id, RECORD_BYTES)));
    }

    /** Sends a background record (like a heartbeat, an event or telemetry). */
    void sendBackground(String id) {
        background.send(new ProducerRecord<>(input, id, FloorTopology.value(id, RECORD_BYTES)));
    }

    /**
     * Background records at {@code perSecond} from now on (0 stops them), on a thread of the floor's driver: the
     * floor carries as many records per second as Quanta's inputs.
     */
    void background(double perSecond) {
        backgroundRate = perSecond;
    }

    private void backgroundLoop() {
        Pacer pacer = new Pacer();
        long sent = 0;
        while (!closed) {
            long owed = pacer.due(backgroundRate, System.nanoTime());
            for (long i = 0; i < owed; i++, sent++) {
                sendBackground("bg-" + sent);
            }
            Submitter.sleep(10);
        }
    }

    void flush() {
        measured.flush();
        background.flush();
    }

    Map<String, Long> sentAt() {
        return sentAt;
    }

    Map<String, Long> arrivedAt() {
        return arrivedAt;
    }

    long pid() {
        return process.pid();
    }

    String applicationId() {
        return applicationId;
    }

    /** The floor's input and inbox topics (what its committed offsets must reach). */
    List<String> consumedTopics() {
        return List.of(input, inbox);
    }

    @Override
    public void close() {
        closed = true;
        try {
            readerThread.join(5_000);
            backgroundThread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reader.close();
        measured.close();
        background.close();
        process.stop(Duration.ofSeconds(20));
    }
}
