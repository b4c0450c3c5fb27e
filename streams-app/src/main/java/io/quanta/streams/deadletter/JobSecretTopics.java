package io.quanta.streams.deadletter;

import io.quanta.topics.TopicCatalogue;
import java.util.Objects;

/**
 * The topics whose record values may hold a job's command line and environment in the clear: the submissions topic,
 * every tenant's {@code <submissions>.<tenant>} topic, and the cell inbox (which carries the submissions to the cells).
 * Their records are never copied into dead letters ({@link DeadLetters#withoutValue}).
 *
 * @param submissions the shared submissions topic
 * @param inbox       the cell inbox topic
 */
public record JobSecretTopics(String submissions, String inbox) {

    public JobSecretTopics {
        Objects.requireNonNull(submissions, "submissions");
        Objects.requireNonNull(inbox, "inbox");
    }

    /** The topics of a catalogue. */
    public static JobSecretTopics of(TopicCatalogue topics) {
        return new JobSecretTopics(topics.submissions().name(), topics.inbox().name());
    }

    /** Whether values of {@code topic} may hold a job's command line and environment. */
    public boolean contains(String topic) {
        return topic != null && (topic.equals(submissions) || topic.equals(inbox)
                || topic.startsWith(submissions + "."));
    }
}
