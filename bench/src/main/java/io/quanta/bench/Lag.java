package io.quanta.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/** How far a consumer group is behind on some topics, from the broker's offsets (no client of the group needed). */
final class Lag {

    private Lag() {
    }

    /** The read_committed end offset of every partition of {@code topics}. */
    static Map<TopicPartition, Long> ends(Admin admin, List<String> topics) {
        try {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get().forEach((name, d) -> d.partitions()
                    .forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
            Map<TopicPartition, Long> out = new HashMap<>();
            admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get()
                    .forEach((tp, info) -> out.put(tp, info.offset()));
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The sum of the end offsets of {@code topics} (records appended so far, plus transaction markers). */
    static long total(Admin admin, List<String> topics) {
        return ends(admin, topics).values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * True when {@code group} committed every partition of {@code topics} up to its end (a transactional topic's
     * end counts its last commit marker, hence the one offset of slack).
     */
    static boolean caughtUp(Admin admin, String group, List<String> topics) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get();
            return ends(admin, topics).entrySet().stream().allMatch(e -> e.getValue() <= 1 + (committed.containsKey(
                    e.getKey()) && committed.get(e.getKey()) != null ? committed.get(e.getKey()).offset() : 0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }
}
