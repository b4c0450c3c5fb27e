package io.quanta.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.MiniCluster;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeterminismTest {

    private record Run(List<byte[]> decisions, List<byte[]> commands, List<byte[]> statuses,
                       List<SchedulingDecision> typed) {
    }

    private static Run run(long seed) {
        PolicyConfig las = PolicyConfig.of(Map.of("policy", "tiresias-las", "tiresias.thresholds", "200"));
        try (SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy(las),
                StoreOptions.inMemoryWithoutChangelogs())) {
            new MiniCluster(driver, seed).run(4, 40, 900);
            var topics = driver.topics();
            return new Run(serialize(topics.decisions().name(), topics.decisions().valueSerde().serializer(),
                    driver.decisions()), serialize(topics.commands().name(),
                    topics.commands().valueSerde().serializer(), driver.commands()),
                    serialize(topics.status().name(), topics.status().valueSerde().serializer(), driver.statuses()),
                    List.copyOf(driver.decisions()));
        }
    }

    private static <T> List<byte[]> serialize(String topic, org.apache.kafka.common.serialization.Serializer<T> ser,
                                              List<T> values) {
        return values.stream().map(v -> ser.serialize(topic, v)).toList();
    }

    @Test
    void shouldProduceByteIdenticalOutputsWhenTheSameInputsAreReplayedIntoAFreshInstance() {
        Run first = run(7);
        Run second = run(7);

        assertThat(first.decisions()).hasSizeGreaterThan(50);
        assertThat(second.decisions()).hasSameSizeAs(first.decisions());
        for (int i = 0; i < first.decisions().size(); i++) {
            assertThat(second.decisions().get(i)).as("decision %d", i).isEqualTo(first.decisions().get(i));
        }
        assertThat(second.commands()).hasSameSizeAs(first.commands());
        for (int i = 0; i < first.commands().size(); i++) {
            assertThat(second.commands().get(i)).as("command %d", i).isEqualTo(first.commands().get(i));
        }
        assertThat(second.statuses()).hasSameSizeAs(first.statuses());
        for (int i = 0; i < first.statuses().size(); i++) {
            assertThat(second.statuses().get(i)).as("status %d", i).isEqualTo(first.statuses().get(i));
        }
    }

    @Test
    void shouldExerciseEveryPathInTheDeterminismScenario() {
        Run run = run(7);

        assertThat(run.typed()).extracting(SchedulingDecision::getType).contains(DecisionType.CONFIG,
                DecisionType.START, DecisionType.SUSPEND, DecisionType.CHANGE_QUEUE, DecisionType.FINISH,
                DecisionType.REQUEUE);
        assertThat(run.typed()).extracting(SchedulingDecision::getSeq)
                .isEqualTo(java.util.stream.LongStream.rangeClosed(1, run.typed().size()).boxed().toList());
    }
}
