package io.quanta.topics.admin;

import io.quanta.topics.TopicSpec;
import io.quanta.topics.retry.Backoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.record.TimestampType;

/**
 * Creates the missing topics of a catalogue and verifies the existing ones (partition count, cleanup policy, and the
 * replication factor when one is specified). Never alters an existing topic: differences are reported as
 * {@link TopicApplyResult.Outcome#DRIFT} with details. Idempotent: a second run reports OK for everything it created.
 */
public final class TopicsApply {

    /** The first wait for a topic the broker's metadata does not know yet; doubled after each try, up to the cap. */
    static final Duration FIRST_DESCRIBE_WAIT = Duration.ofMillis(50);
    static final Duration MAX_DESCRIBE_WAIT = Duration.ofSeconds(1);

    private final Admin admin;
    private final Duration timeout;

    public TopicsApply(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /** One result per spec, in the order given. */
    public List<TopicApplyResult> apply(Collection<? extends TopicSpec<?, ?>> specs) {
        Set<String> existing = await(admin.listTopics().names(), "list topics");
        List<TopicApplyResult> results = new ArrayList<>();
        for (TopicSpec<?, ?> spec : specs) {
            if (!existing.contains(spec.name()) && create(spec)) {
                results.add(new TopicApplyResult(spec.name(), TopicApplyResult.Outcome.CREATED, List.of()));
            } else {
                List<String> drift = verify(spec);
                results.add(new TopicApplyResult(spec.name(),
                        drift.isEmpty() ? TopicApplyResult.Outcome.OK : TopicApplyResult.Outcome.DRIFT, drift));
            }
        }
        return results;
    }

    /** True when created, false when someone else created it meanwhile. */
    private boolean create(TopicSpec<?, ?> spec) {
        try {
            admin.createTopics(List.of(spec.newTopic())).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw new KafkaException("Cannot create topic " + spec.name() + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while creating topic " + spec.name(), e);
        } catch (TimeoutException e) {
            throw new KafkaException("Timed out after " + timeout + " creating topic " + spec.name(), e);
        }
    }

    private List<String> verify(TopicSpec<?, ?> spec) {
        TopicDescription description = describeWhenKnown(spec.name());
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, spec.name());
        Map<ConfigResource, Config> configs = await(admin.describeConfigs(List.of(resource)).all(),
                "describe configs of " + spec.name());
        List<String> drift = new ArrayList<>();
        int partitions = description.partitions().size();
        if (partitions != spec.partitions()) {
            drift.add("partitions: expected " + spec.partitions() + ", found " + partitions);
        }
        ConfigEntry policy = configs.get(resource).get(TopicConfig.CLEANUP_POLICY_CONFIG);
        String actualPolicy = policy == null ? "" : policy.value();
        if (!policiesOf(actualPolicy).equals(Set.of(spec.cleanupPolicy().configValue()))) {
            drift.add("cleanup.policy: expected " + spec.cleanupPolicy().configValue() + ", found " + actualPolicy);
        }
        ConfigEntry timestamps = configs.get(resource).get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
        String actualTimestamps = timestamps == null ? TimestampType.CREATE_TIME.name : timestamps.value();
        if (!spec.timestampType().name.equals(actualTimestamps)) {
            drift.add(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG + ": expected " + spec.timestampType().name
                    + ", found " + actualTimestamps + (spec.timestampType() == TimestampType.LOG_APPEND_TIME
                    ? " (producers' clocks become the scheduler's time; alter it with kafka-configs.sh)" : ""));
        }
        if (spec.replicationFactor() != -1) {
            int replicas = description.partitions().getFirst().replicas().size();
            if (replicas != spec.replicationFactor()) {
                drift.add("replication factor: expected " + spec.replicationFactor() + ", found " + replicas);
            }
        }
        return drift;
    }

    /**
     * Describes a topic, retrying while the broker's metadata has not caught up with a topic that was just created
     * (by us or by a concurrent apply): it answers UnknownTopicOrPartition for a short while. Bounded by the timeout.
     */
    private TopicDescription describeWhenKnown(String name) {
        return whenKnown(() -> await(admin.describeTopics(List.of(name)).allTopicNames(), "describe topic " + name)
                .get(name), timeout, new Backoff(FIRST_DESCRIBE_WAIT, MAX_DESCRIBE_WAIT), TopicsApply::sleep);
    }

    /**
     * Calls {@code describe} until it answers, waiting the backoff's delays while it fails because the topic is not
     * known yet (UnknownTopicOrPartition), for at most {@code timeout}. Any other failure, this one once the timeout
     * has passed, or an interrupted wait throws the failure.
     */
    static <T> T whenKnown(Supplier<T> describe, Duration timeout, Backoff backoff, Pause pause) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return describe.get();
            } catch (KafkaException e) {
                long left = deadline - System.nanoTime();
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || left <= 0
                        || !pause.pause(min(backoff.next(), Duration.ofNanos(left)))) {
                    throw e;
                }
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Waits before the next try. */
    @FunctionalInterface
    interface Pause {
        /** Waits {@code delay}; false when interrupted (the thread's interrupt flag set again). */
        boolean pause(Duration delay);
    }

    private static boolean sleep(Duration delay) {
        try {
            Thread.sleep(delay.toMillis()); // metadata propagation backoff, not test synchronisation
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Set<String> policiesOf(String value) {
        return java.util.Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
    }

    private <T> T await(KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new KafkaException("Cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted: " + what, e);
        } catch (TimeoutException e) {
            throw new KafkaException("Timed out after " + timeout + ": " + what, e);
        }
    }
}
