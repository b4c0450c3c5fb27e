package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A gang attempt that fails or is lost on one member is killed on the others, and the job starts again only once they
 * stopped: two copies of a job never run (the chaos suite's crash run found a restart 4 ms before a member's KILL).
 */
class GangDrainTest {

    private static final String CELL = SchedulerDriver.CELL;

    /** j1 (4 GPUs) runs as a gang on n1 and n2 (2 GPUs each); n3 has 4 free GPUs. */
    private static SchedulerDriver gangOnN1AndN2() {
        SchedulerDriver driver = SchedulerDriver.withPolicy("fifo");
        driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
        driver.heartbeat(node("n2", CELL, 2, 1, at(0)).build());
        driver.submit(job("j1", 4).build(), at(1));
        driver.event(event("j1", 1, "n1", JobEventType.STARTED, at(2)));
        driver.event(event("j1", 1, "n2", JobEventType.STARTED, at(2)));
        driver.heartbeat(node("n3", CELL, 4, 1, at(3)).build());
        return driver;
    }

    private static List<NodeCommand> startsOfAttempt(SchedulerDriver driver, int attempt) {
        return driver.commands().stream()
                .filter(c -> c.getType() == NodeCommandType.START && c.getAttempt() == attempt).toList();
    }

    @Test
    void shouldStartTheNextAttemptOnlyAfterTheOtherMemberReportedItsEnd() {
        try (SchedulerDriver driver = gangOnN1AndN2()) {
            driver.event(event("j1", 1, "n1", JobEventType.LOST, at(4)));

            assertThat(driver.commands()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo(NodeCommandType.KILL);
                assertThat(c.getNodeId()).isEqualTo("n2");
            });
            driver.heartbeat(node("n3", CELL, 4, 1, at(15)).build());
            assertThat(startsOfAttempt(driver, 2)).as("no restart while n2 may still run attempt 1").isEmpty();
            assertThat(driver.lastStatus("j1").getReason()).contains("waits until attempt 1 stopped on n2");

            driver.event(event("j1", 1, "n2", JobEventType.FAILED, at(16)));
            driver.heartbeat(node("n3", CELL, 4, 1, at(30)).build());

            assertThat(startsOfAttempt(driver, 2)).isNotEmpty();
        }
    }

    @Test
    void shouldStartAgainOnceTheOtherMembersNodeIsLost() {
        try (SchedulerDriver driver = gangOnN1AndN2()) {
            driver.event(event("j1", 1, "n1", JobEventType.FAILED, at(4)));
            driver.heartbeat(node("n1", CELL, 2, 1, at(10)).build());
            driver.heartbeat(node("n3", CELL, 4, 1, at(10)).build());
            assertThat(startsOfAttempt(driver, 2)).isEmpty();

            // n2 falls silent (its connector fences itself before the node timeout)
            driver.heartbeat(node("n1", CELL, 2, 1, at(40)).build());
            driver.heartbeat(node("n3", CELL, 4, 1, at(40)).build());

            assertThat(startsOfAttempt(driver, 2)).isNotEmpty();
        }
    }

    @Test
    void shouldStartAgainWhenTheOtherMembersHeartbeatsStopListingTheAttemptLongAfterItsKill() {
        try (SchedulerDriver driver = gangOnN1AndN2()) {
            driver.event(event("j1", 1, "n1", JobEventType.FAILED, at(4)));
            driver.heartbeat(node("n2", CELL, 2, 1, at(5)).setRunning(List.of(running("j1", 1, 0, 1))).build());
            driver.heartbeat(node("n2", CELL, 2, 1, at(20)).build()); // not listed, but within the grace
            driver.heartbeat(node("n3", CELL, 4, 1, at(20)).build());
            assertThat(startsOfAttempt(driver, 2)).isEmpty();

            driver.heartbeat(node("n2", CELL, 2, 1, at(40)).build()); // its end event was lost: the heartbeat says
            driver.heartbeat(node("n3", CELL, 4, 1, at(41)).build());

            assertThat(startsOfAttempt(driver, 2)).isNotEmpty();
        }
    }
}
