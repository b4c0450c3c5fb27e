package io.quanta.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.CellReplay;
import io.quanta.streams.testing.MiniCluster;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The inbox is the write-ahead log: replaying it through a fresh cell scheduler processor reproduces every decision,
 * also across a restart that rebuilds the in-memory state from the stores.
 */
class ReplayTest {

    private static final SchedulerSettings SETTINGS = SchedulerSettings.defaults().withPolicy(
            PolicyConfig.of(Map.of("policy", "tiresias-las", "tiresias.thresholds", "200")));

    private static List<TestRecord<String, byte[]>> inbox;
    private static List<SchedulingDecision> live;
    private static SchedulerDriver driver;

    @BeforeAll
    static void recordLiveRun() {
        driver = new SchedulerDriver(SETTINGS, StoreOptions.inMemoryWithoutChangelogs());
        new MiniCluster(driver, 11).run(4, 40, 900);
        inbox = List.copyOf(driver.inbox());
        live = List.copyOf(driver.decisions());
        driver.close();
    }

    @Test
    void shouldReproduceEveryDecisionWhenTheInboxIsReplayedIntoAFreshProcessor() {
        CellReplay replay = new CellReplay(driver.topics()).start(SETTINGS).feed(inbox, 0, inbox.size());

        assertThat(live).hasSizeGreaterThan(50);
        assertThat(replay.decisions()).containsExactlyElementsOf(live);
    }

    @Test
    void shouldReproduceEveryDecisionAcrossARestartFromTheStores() {
        CellReplay replay = new CellReplay(driver.topics()).start(SETTINGS);
        int half = inbox.size() / 2;

        replay.feed(inbox, 0, half).start(SETTINGS).feed(inbox, half, inbox.size());

        assertThat(replay.decisions()).containsExactlyElementsOf(live);
    }

    @Test
    void shouldRecordNewConfigurationBeforeTheFirstDecisionAfterItChanged() {
        SchedulerSettings changed = SETTINGS.withPolicy(SETTINGS.policy().with("tiresias.thresholds", "300"));
        CellReplay replay = new CellReplay(driver.topics()).start(SETTINGS);
        int half = inbox.size() / 2;
        replay.feed(inbox, 0, half);
        int before = replay.decisions().size();

        replay.start(changed).feed(inbox, half, inbox.size());

        SchedulingDecision config = replay.decisions().get(before);
        assertThat(config.getType()).isEqualTo(DecisionType.CONFIG);
        assertThat(config.getSeq()).isEqualTo(replay.decisions().get(before - 1).getSeq() + 1);
        assertThat(config.getDetails()).containsEntry("policy.tiresias.thresholds", "300");
        assertThat(config.getReason()).contains("(was " + live.getFirst().getConfigHash() + ")");
        assertThat(config.getConfigHash()).isNotEqualTo(live.getFirst().getConfigHash());
        assertThat(replay.decisions().stream().filter(d -> d.getType() == DecisionType.CONFIG)).hasSize(2);
    }
}
