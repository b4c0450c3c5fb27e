package io.quanta.topics.serde;

/** Confluent's TopicNameStrategy: the subject of a topic's values is {@code <topic>-value}, of its keys {@code <topic>-key}. */
public final class SubjectNames {

    private SubjectNames() {
    }

    public static String of(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }

    public static String value(String topic) {
        return of(topic, false);
    }
}
