package io.quanta.chaos.infra;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/** Positions in topics: the last stable offsets, which separate what a dead producer committed from what comes next. */
public final class Offsets {

    private Offsets() {
    }

    /**
     * The last stable offset of every partition of {@code topics}: once the producer that wrote them is dead, a
     * committed record at or after it was written by someone else (its open transaction is aborted).
     */
    public static Map<TopicPartition, Long> lastStable(Properties kafka, List<String> topics) {
        try (Admin admin = Admin.create(kafka)) {
            Map<TopicPartition, OffsetSpec> wanted = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).forEach((name, d) ->
                    d.partitions().forEach(p -> wanted.put(new TopicPartition(name, p.partition()),
                            OffsetSpec.latest())));
            Map<TopicPartition, Long> out = new HashMap<>();
            admin.listOffsets(wanted, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all()
                    .get(30, TimeUnit.SECONDS).forEach((tp, info) -> out.put(tp, info.offset()));
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the offsets of " + topics + ": " + e, e);
        }
    }
}
