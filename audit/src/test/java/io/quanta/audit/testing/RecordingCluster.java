package io.quanta.audit.testing;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.InboxRecord;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.sim.engine.ScheduledCluster;
import io.quanta.sim.engine.SchedulerOutput;
import io.quanta.sim.topology.TopologyScheduler;
import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.host.DirectTopology;
import io.quanta.topics.TopicCatalogue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The simulator's scheduler (the whole production topology on a {@code DirectTopology}), driven by the simulator's
 * event loop as a {@link ScheduledCluster}, that keeps what an audit reads: every inbox record (offsets numbered
 * from 0, as one partition numbers them) and every decision. {@link #log} returns a cell's {@link CellLog}.
 */
public final class RecordingCluster implements ScheduledCluster {

    private final TopologyScheduler scheduler;
    private final TopicCatalogue topics;
    private final List<InboxRecord> inboxLog = new ArrayList<>();
    private final List<RecordedDecision> decisionLog = new ArrayList<>();
    private Instant until = Instant.MAX;

    /** Thrown by an input method once the input time passes {@link #stopAfter}: the recording is complete. */
    public static final class RecordingComplete extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RecordingComplete(Instant at) {
            super("recording complete at " + at, null, false, false);
        }
    }

    public RecordingCluster(SchedulerSettings settings, String cellId) {
        this.scheduler = TopologyScheduler.create(settings, cellId, this::record);
        this.topics = scheduler.topics();
    }

    /** Ends the recording at the first input later than {@code time} (a log of a fixed span of stream time). */
    public RecordingCluster stopAfter(Instant time) {
        this.until = time;
        return this;
    }

    private void admit(Instant at) {
        if (at.isAfter(until)) {
            throw new RecordingComplete(at);
        }
    }

    @Override
    public void submit(JobSubmitted job, Instant at) {
        admit(at);
        scheduler.submit(job, at);
    }

    @Override
    public void heartbeat(NodeHeartbeat beat) {
        admit(beat.getSentAt());
        scheduler.heartbeat(beat);
    }

    @Override
    public void event(JobEvent event) {
        admit(event.getAt());
        scheduler.event(event);
    }

    @Override
    public void telemetry(JobTelemetry t) {
        admit(t.getReportedAt());
        scheduler.telemetry(t);
    }

    @Override
    public SchedulerOutput drain() {
        return scheduler.drain();
    }

    @Override
    public Optional<Instant> nextWakeUp() {
        return scheduler.nextWakeUp();
    }

    @Override
    public long inputRecords() {
        return scheduler.inputRecords();
    }

    /** Everything recorded so far for a cell, as an audit reads it (inbox and decisions in partition 0). */
    public CellLog log(String cell) {
        drain();
        return new CellLog(cell, topics.inbox().name(), 0,
                inboxLog.stream().filter(r -> cell.equals(r.key())).toList(), topics.decisions().name(), 0,
                decisionLog.stream().filter(r -> cell.equals(r.decision().getCellId())).toList());
    }

    @Override
    public void close() {
        scheduler.close();
    }

    private void record(String topic, DirectTopology.Produced r) {
        if (topic.equals(topics.inbox().name())) {
            CellInput input = topics.inbox().valueSerde().deserializer().deserialize(topic, r.headers(), r.value());
            inboxLog.add(InboxRecord.of(inboxLog.size(), r.timestamp(),
                    r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8), input));
        } else if (topic.equals(topics.decisions().name())) {
            SchedulingDecision decision = topics.decisions().valueSerde().deserializer()
                    .deserialize(topic, r.headers(), r.value());
            decisionLog.add(new RecordedDecision(decisionLog.size(), r.timestamp(), decision));
        }
    }
}
