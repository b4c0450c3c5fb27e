package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.router.CellRouting;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RoutingTest {

    private static SchedulerDriver twoCells() {
        CellRouting routing = new CellRouting(new TreeMap<>(Map.of("nlp", "cell-b")),
                new TreeMap<>(Map.of("A100", "cell-a100")), "cell-a");
        return new SchedulerDriver(SchedulerSettings.defaults().withPolicy("fifo").withRouting(routing),
                StoreOptions.inMemory());
    }

    @Test
    void shouldRouteJobsByTenantThenGpuTypeThenDefault() {
        try (SchedulerDriver driver = twoCells()) {
            driver.heartbeat(node("a1", "cell-a", 2, 1, at(0)).build());
            driver.heartbeat(node("b1", "cell-b", 2, 1, at(0)).build());

            driver.submit(job("vision-job", 1).setTenant("vision").build(), at(1));
            driver.submit(job("nlp-job", 1).setTenant("nlp").build(), at(1));
            driver.submit(job("nlp-a100-job", 1).setTenant("nlp").setGpuType("A100").build(), at(1));
            driver.submit(job("a100-job", 1).setTenant("vision").setGpuType("A100").build(), at(1));

            assertThat(driver.commands()).extracting(NodeCommand::getJobId, NodeCommand::getNodeId)
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("vision-job", "a1"),
                            org.assertj.core.groups.Tuple.tuple("nlp-job", "b1"));
            assertThat(driver.lastStatus("a100-job").getCellId()).isEqualTo("cell-a100");
            assertThat(driver.lastStatus("nlp-a100-job").getCellId()).isEqualTo("cell-b");
            assertThat(driver.lastStatus("a100-job").getState()).isEqualTo(JobState.QUEUED);
            assertThat(driver.decisions()).extracting(SchedulingDecision::getCellId)
                    .contains("cell-a", "cell-b");
        }
    }

    @Test
    void shouldKeepSeparateSequencesAndStateForCellsSharingAPartition() {
        try (SchedulerDriver driver = twoCells()) {
            driver.heartbeat(node("a1", "cell-a", 1, 1, at(0)).build());
            driver.heartbeat(node("b1", "cell-b", 1, 1, at(0)).build());
            driver.submit(job("x", 1).setTenant("vision").build(), at(1));
            driver.submit(job("y", 1).setTenant("nlp").build(), at(1));

            assertThat(driver.decisions().stream().filter(d -> d.getCellId().equals("cell-a")))
                    .extracting(SchedulingDecision::getSeq).containsExactly(1L, 2L);
            assertThat(driver.decisions().stream().filter(d -> d.getCellId().equals("cell-b")))
                    .extracting(SchedulingDecision::getSeq).containsExactly(1L, 2L);
        }
    }

    @Test
    void shouldLetANodeGoWhenItMovesToAnotherCell() {
        try (SchedulerDriver driver = twoCells()) {
            driver.heartbeat(node("n1", "cell-a", 1, 1, at(0)).build());
            driver.submit(job("x", 1).setTenant("vision").build(), at(1));
            driver.event(event("x", 1, "n1", JobEventType.STARTED, at(2)));

            driver.heartbeat(node("n1", "cell-b", 1, 1, at(3)).build());

            assertThat(driver.decisions()).filteredOn(d -> d.getCellId().equals("cell-a"))
                    .extracting(SchedulingDecision::getType).contains(DecisionType.REQUEUE);
            assertThat(driver.lastStatus("x").getState()).isEqualTo(JobState.QUEUED);
            assertThat(driver.commands().getLast().getType()).isEqualTo(io.quanta.schemas.NodeCommandType.KILL);
        }
    }
}
