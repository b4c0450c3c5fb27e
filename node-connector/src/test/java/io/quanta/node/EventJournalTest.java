package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.node.runner.NodeWorkDir;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventJournalTest {

    @TempDir
    Path dir;

    private static JobEvent event(String job, JobEventType type) {
        return JobEvent.newBuilder().setJobId(job).setAttempt(1).setNodeId("n1").setEpoch(5).setType(type)
                .setCommandId("c-" + job).setAt(Instant.parse("2026-01-01T00:00:00Z")).build();
    }

    @Test
    void shouldGiveBackAfterARestartEveryEventNotAcknowledgedInOrder() {
        EventJournal before = new EventJournal(new NodeWorkDir(dir));
        before.recover();
        EventJournal.Entry started = before.append(event("a", JobEventType.STARTED));
        before.append(event("a", JobEventType.COMPLETED));
        before.append(event("b", JobEventType.FAILED));
        before.delivered(started);

        // a new instance on the same directory stands for the connector after kill -9
        EventJournal after = new EventJournal(new NodeWorkDir(dir));
        List<EventJournal.Entry> recovered = after.recover();

        assertThat(recovered).extracting(e -> e.event().getJobId() + " " + e.event().getType())
                .containsExactly("a COMPLETED", "b FAILED");
        assertThat(after.pending()).isEqualTo(2);
        EventJournal.Entry next = after.append(event("c", JobEventType.STARTED));
        assertThat(next.sequence()).isGreaterThan(recovered.get(1).sequence());
    }

    @Test
    void shouldForgetAcknowledgedEvents() {
        EventJournal journal = new EventJournal(new NodeWorkDir(dir));
        journal.recover();
        journal.delivered(journal.append(event("a", JobEventType.STARTED)));

        assertThat(journal.pending()).isZero();
        assertThat(new EventJournal(new NodeWorkDir(dir)).recover()).isEmpty();
    }

    @Test
    void shouldMoveAnUnreadableEntryAsideAndDropAHalfWrittenOneInsteadOfFailing() throws IOException {
        EventJournal journal = new EventJournal(new NodeWorkDir(dir));
        journal.recover();
        journal.append(event("good", JobEventType.COMPLETED));
        Files.write(dir.resolve("journal").resolve("00000000000000000007.event"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("journal").resolve("00000000000000000008.event.tmp"), new byte[] {4});

        List<EventJournal.Entry> recovered = new EventJournal(new NodeWorkDir(dir)).recover();

        assertThat(recovered).extracting(e -> e.event().getJobId()).containsExactly("good");
        try (Stream<Path> corrupt = Files.list(dir.resolve("corrupt"))) {
            assertThat(corrupt.map(p -> p.getFileName().toString()))
                    .singleElement().asString().startsWith("journal_00000000000000000007.event");
        }
        try (Stream<Path> left = Files.list(dir.resolve("journal"))) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }
}
