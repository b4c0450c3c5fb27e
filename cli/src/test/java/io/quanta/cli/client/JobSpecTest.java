package io.quanta.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobSubmitted;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class JobSpecTest {

    private static JobSpec spec(int gpus, String tenant, List<String> command, OptionalLong duration) {
        return new JobSpec(Optional.empty(), tenant, gpus, Optional.empty(), "resnet50", OptionalDouble.empty(),
                Optional.empty(), command, Map.of(), duration, 0, 3);
    }

    @Test
    void shouldHaveNoProblemsWhenSpecIsComplete() {
        assertThat(spec(4, "vision", List.of("python", "train.py"), OptionalLong.empty()).problems()).isEmpty();
    }

    @Test
    void shouldListEveryProblemWhenSeveralFieldsAreBad() {
        List<String> problems = spec(0, "bad tenant!", List.of(), OptionalLong.empty()).problems();

        assertThat(problems).hasSize(3);
        assertThat(problems).anyMatch(p -> p.contains("gpus must be at least 1, got 0"))
                .anyMatch(p -> p.contains("tenant 'bad tenant!'"))
                .anyMatch(p -> p.contains("nothing to run"));
    }

    @Test
    void shouldAcceptDurationInsteadOfCommandWhenNodesAreSimulated() {
        assertThat(spec(2, "nlp", List.of(), OptionalLong.of(600)).problems()).isEmpty();
    }

    @Test
    void shouldUseModelDefaultsWhenBuildingTheRequest() {
        JobSubmitted submitted = (JobSubmitted) spec(4, "vision", List.of("python", "train.py"), OptionalLong.of(60))
                .toRequest("job-1", Instant.parse("2026-01-01T00:00:00Z")).getRequest();

        assertThat(submitted.getJobId()).isEqualTo("job-1");
        assertThat(submitted.getProfile().getModelName()).isEqualTo("resnet50");
        assertThat(submitted.getProfile().getGpuMemoryMiB()).isPositive();
        assertThat(submitted.getExpectedDurationSeconds()).isEqualTo(60L);
        assertThat(submitted.getCommand()).containsExactly("python", "train.py");
    }

    @Test
    void shouldGiveUnknownModelNeutralProfileWhenNameIsNotKnown() {
        assertThat(ModelProfiles.defaultsFor("my-net").getTensorSizeSkew()).isZero();
        assertThat(ModelProfiles.defaultsFor("my-net").getGpuMemoryMiB()).isZero();
        assertThat(ModelProfiles.defaultsFor("VGG-16").getTensorSizeSkew()).isGreaterThan(0.5);
    }
}
