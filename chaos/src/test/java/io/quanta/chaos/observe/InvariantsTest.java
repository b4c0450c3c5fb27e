package io.quanta.chaos.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.quanta.topics.serde.AvroTrust;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class InvariantsTest {

    private final List<Seen<JobEvent>> events = new ArrayList<>();

    @BeforeAll
    static void trustSchemas() {
        AvroTrust.trustQuantaSchemas();
    }

    private final List<Seen<NodeCommand>> commands = new ArrayList<>();
    private final List<Seen<JobStatus>> statuses = new ArrayList<>();

    private void start(String job, int attempt, String node, List<Integer> gpus) {
        commands.add(seen(NodeCommand.newBuilder().setCommandId(job + "/" + attempt + "/START/" + node).setNodeId(node)
                .setEpoch(1).setJobId(job).setAttempt(attempt).setType(NodeCommandType.START).setGpuIndices(gpus)
                .setIssuedAt(Instant.EPOCH).build()));
    }

    private void event(String job, int attempt, String node, long epoch, JobEventType type, long at) {
        events.add(seen(JobEvent.newBuilder().setJobId(job).setAttempt(attempt).setNodeId(node).setEpoch(epoch)
                .setType(type).setAt(Instant.ofEpochMilli(at)).build()));
    }

    private void status(String job, JobState state, double attained) {
        statuses.add(seen(JobStatus.newBuilder().setJobId(job).setState(state).setAttainedGpuSeconds(attained)
                .setUpdatedAt(Instant.EPOCH).build()));
    }

    private <V> Seen<V> seen(V value) {
        int n = events.size() + commands.size() + statuses.size();
        return new Seen<>("k", value, Long.MAX_VALUE, 0, n, 0);
    }

    @Test
    void shouldFindAGpuHeldByTwoAttemptsWhenTheirIntervalsOverlap() {
        start("a", 1, "n1", List.of(0, 1));
        start("b", 1, "n1", List.of(1));
        event("a", 1, "n1", 1, JobEventType.STARTED, 100);
        event("b", 1, "n1", 1, JobEventType.STARTED, 150);
        event("a", 1, "n1", 1, JobEventType.COMPLETED, 200);
        event("b", 1, "n1", 1, JobEventType.COMPLETED, 300);

        List<String> overlaps = Invariants.gpuOverlaps(Invariants.executions(events, commands, Map.of()));

        assertThat(overlaps).singleElement().asString().contains("GPU n1/1", "a#1", "b#1");
    }

    @Test
    void shouldAcceptAGpuHandedOverAtTheMomentTheFirstAttemptEnds() {
        start("a", 1, "n1", List.of(0));
        start("b", 1, "n1", List.of(0));
        event("a", 1, "n1", 1, JobEventType.STARTED, 100);
        event("a", 1, "n1", 1, JobEventType.SUSPENDED, 200);
        event("b", 1, "n1", 1, JobEventType.STARTED, 200);

        assertThat(Invariants.gpuOverlaps(Invariants.executions(events, commands, Map.of()))).isEmpty();
    }

    @Test
    void shouldEndAnAttemptNoLaterThanTheBrokerAppendedItsEndEventWhenTheConnectorStampedItAhead() {
        start("a", 1, "n1", List.of(0));
        start("b", 1, "n1", List.of(0));
        event("a", 1, "n1", 1, JobEventType.STARTED, 100);
        events.add(new Seen<>("a", JobEvent.newBuilder().setJobId("a").setAttempt(1).setNodeId("n1").setEpoch(1)
                .setType(JobEventType.COMPLETED).setAt(Instant.ofEpochMilli(260)).build(), 180, 0, 9, 0));
        event("b", 1, "n1", 1, JobEventType.STARTED, 200);

        List<Execution> executions = Invariants.executions(events, commands, Map.of());

        assertThat(executions).first().extracting(Execution::endAt).isEqualTo(180L);
        assertThat(Invariants.gpuOverlaps(executions)).isEmpty();
    }

    @Test
    void shouldEndAnAttemptWhenItsConnectorIsKilledWithoutAnEndEvent() {
        start("a", 1, "n1", List.of(0));
        start("b", 1, "n1", List.of(0));
        event("a", 1, "n1", 1, JobEventType.STARTED, 100);
        event("b", 1, "n1", 2, JobEventType.STARTED, 500);

        List<Execution> executions = Invariants.executions(events, commands, Map.of("n1", List.of(300L)));

        assertThat(executions).first().satisfies(e -> {
            assertThat(e.endAt()).isEqualTo(300);
            assertThat(e.endType()).isEqualTo("KILLED");
        });
        assertThat(Invariants.gpuOverlaps(executions)).isEmpty();
        assertThat(Invariants.gpuOverlaps(Invariants.executions(events, commands, Map.of()))).hasSize(1);
    }

    @Test
    void shouldFindTwoAttemptsOfOneJobRunningAtOnceButNotTheGangOfOneAttempt() {
        start("a", 1, "n1", List.of(0));
        start("a", 1, "n2", List.of(0));
        start("a", 2, "n3", List.of(0));
        event("a", 1, "n1", 1, JobEventType.STARTED, 100);
        event("a", 1, "n2", 1, JobEventType.STARTED, 110);
        event("a", 2, "n3", 1, JobEventType.STARTED, 400);
        event("a", 1, "n1", 1, JobEventType.LOST, 450);
        event("a", 1, "n2", 1, JobEventType.LOST, 300);

        List<Execution> executions = Invariants.executions(events, commands, Map.of());

        assertThat(Invariants.attemptOverlaps(executions)).singleElement().asString().contains("a#1 on n1",
                "a#2 on n3");
        assertThat(Invariants.gangPeerOverlaps(executions)).as("n2 had ended attempt 1 before attempt 2 started")
                .hasSize(1);
    }

    @Test
    void shouldNotCallAnOverlapAGangRestartWhenNoMemberHadEndedTheAttempt() {
        start("a", 1, "n1", List.of(0));
        start("a", 2, "n3", List.of(0));
        event("a", 1, "n1", 1, JobEventType.STARTED, 100);
        event("a", 2, "n3", 1, JobEventType.STARTED, 400);
        event("a", 1, "n1", 1, JobEventType.LOST, 450);

        List<Execution> executions = Invariants.executions(events, commands, Map.of());

        assertThat(Invariants.attemptOverlaps(executions)).hasSize(1);
        assertThat(Invariants.gangPeerOverlaps(executions)).isEmpty();
    }

    @Test
    void shouldCountAStartInTwoEpochsAsADoubleExecutionButAnIdenticalCopyAsARedelivery() {
        start("a", 1, "n1", List.of(0));
        start("b", 1, "n1", List.of(1));
        event("a", 1, "n1", 1, JobEventType.STARTED, 100);
        event("a", 1, "n1", 1, JobEventType.STARTED, 100);
        event("b", 1, "n1", 1, JobEventType.STARTED, 100);
        event("b", 1, "n1", 2, JobEventType.STARTED, 900);
        event("c", 1, "n1", 2, JobEventType.STARTED, 900);
        long[] copies = new long[1];

        List<String> doubles = Invariants.doubleStarts(events, commands, copies);

        assertThat(doubles).hasSize(2).anySatisfy(d -> assertThat(d).contains("b#1@n1 STARTED in epochs [1, 2]"))
                .anySatisfy(d -> assertThat(d).contains("c#1@n1 STARTED without a START command"));
        assertThat(copies[0]).isEqualTo(1);
    }

    @Test
    void shouldFindLostJobsSecondFinalStatesAndAttainedServiceGoingBack() {
        status("done", JobState.RUNNING, 10);
        status("done", JobState.FINISHED, 20);
        status("twice", JobState.FINISHED, 5);
        status("twice", JobState.FAILED, 5);
        status("stuck", JobState.RUNNING, 30);
        status("stuck", JobState.QUEUED, 12);

        List<String> problems = Invariants.finalStates(Set.of("done", "twice", "stuck", "never"), statuses);

        assertThat(problems).hasSize(3).anySatisfy(p -> assertThat(p).startsWith("twice reached several final"))
                .anySatisfy(p -> assertThat(p).startsWith("stuck has no final state (last: QUEUED"))
                .anySatisfy(p -> assertThat(p).startsWith("never has no final state (last: no status"));
        assertThat(Invariants.attainedDecreases(statuses)).singleElement().asString().startsWith("stuck");
    }
}
