package io.quanta.node.testing;

import io.quanta.node.command.JobEventSink;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Collects published job events, thread-safely. */
public final class RecordingSink implements JobEventSink {

    private final List<JobEvent> events = new ArrayList<>();

    @Override
    public synchronized void publish(JobEvent event) {
        events.add(event);
    }

    public synchronized List<JobEvent> events() {
        return List.copyOf(events);
    }

    public synchronized List<JobEvent> ofType(JobEventType type) {
        return events.stream().filter(e -> e.getType() == type).toList();
    }

    public synchronized Optional<JobEvent> find(String job, int attempt, JobEventType type) {
        return events.stream()
                .filter(e -> e.getJobId().equals(job) && e.getAttempt() == attempt && e.getType() == type)
                .findFirst();
    }
}
