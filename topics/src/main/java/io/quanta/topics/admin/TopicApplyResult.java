package io.quanta.topics.admin;

import java.util.List;
import java.util.Objects;

/** What {@link TopicsApply} found or did for one topic; {@code drift} lists each difference when DRIFT. */
public record TopicApplyResult(String topic, Outcome outcome, List<String> drift) {

    /** CREATED: it was missing and is now created; OK: it exists as specified; DRIFT: it exists but differs. */
    public enum Outcome { CREATED, OK, DRIFT }

    public TopicApplyResult {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(outcome, "outcome");
        drift = List.copyOf(drift);
    }
}
