package io.quanta.bench;

import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.ModelProfile;
import io.quanta.topics.TopicCatalogue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The load generator's submissions: one-GPU jobs produced as {@code quanta submit} does (acks=all, no linger), each
 * with the moment ({@link System#nanoTime}) its send began.
 */
final class Submitter implements AutoCloseable {

    private final TopicCatalogue topics;
    private final KafkaProducer<String, JobRequest> producer;
    private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    private final Map<String, Long> sentWallMs = new ConcurrentHashMap<>();
    private final Map<String, Long> appendedMs = new ConcurrentHashMap<>();

    Submitter(String bootstrap, TopicCatalogue topics) {
        this.topics = topics;
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0), new StringSerializer(),
                topics.submissions().valueSerde().serializer());
    }

    /** Submits job {@code id} (one GPU) as tenant {@code tenant}. */
    void submit(String id, String tenant) {
        JobSubmitted job = JobSubmitted.newBuilder().setJobId(id).setTenant(tenant).setNumGpus(1)
                .setProfile(ModelProfile.newBuilder().setModelName("resnet50").build())
                .setCommand(List.of("python", "train.py")).setMaxRetries(3).setSubmittedAt(Instant.now()).build();
        sentWallMs.put(id, System.currentTimeMillis());
        sentAt.put(id, System.nanoTime());
        producer.send(new ProducerRecord<>(topics.submissions().name(), id, new JobRequest(job)), (meta, error) -> {
            if (error == null) {
                // the submissions topic uses LogAppendTime: this is the broker's clock at the append
                appendedMs.put(id, meta.timestamp());
            }
        });
    }

    void flush() {
        producer.flush();
    }

    Map<String, Long> sentAt() {
        return sentAt;
    }

    /** When (System.currentTimeMillis) each submission's send began. */
    Map<String, Long> sentWallMs() {
        return sentWallMs;
    }

    /** The broker's append time (ms, LogAppendTime) of each acknowledged submission. */
    Map<String, Long> appendedMs() {
        return appendedMs;
    }

    /**
     * Calls {@code send} with 0, 1, ... at {@code perSecond} for {@code seconds} on the calling thread, on an absolute
     * schedule (a late send does not shift the ones after it); returns how many were sent.
     */
    static int steady(double perSecond, double seconds, IntFunction<?> send) {
        long began = System.nanoTime();
        int count = (int) Math.round(perSecond * seconds);
        for (int i = 0; i < count; i++) {
            long due = began + (long) (i * 1e9 / perSecond);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            send.apply(i);
        }
        return count;
    }

    static void sleep(long millis) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Override
    public void close() {
        producer.close();
    }
}
