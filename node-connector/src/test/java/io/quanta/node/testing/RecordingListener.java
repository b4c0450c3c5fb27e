package io.quanta.node.testing;

import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.JobRunner;
import io.quanta.node.runner.RunnerEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Collects runner events, thread-safely. */
public final class RecordingListener implements JobRunner.Listener {

    private final List<RunnerEvent> events = new ArrayList<>();

    @Override
    public synchronized void onEvent(RunnerEvent event) {
        events.add(event);
    }

    public synchronized List<RunnerEvent> events() {
        return List.copyOf(events);
    }

    /** The end event of an attempt, once there is one. */
    public synchronized Optional<RunnerEvent> endOf(AttemptId id) {
        return events.stream().filter(e -> e.attempt().equals(id) && e.isEnd()).findFirst();
    }

    /** The first event of a type, if any. */
    public synchronized <T extends RunnerEvent> Optional<T> first(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).findFirst();
    }
}
