package io.quanta.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JobSpecFileTest {

    @Test
    void shouldReadEveryFieldWhenFileIsYaml() {
        JobSpec spec = JobSpecFile.parse("job.yaml", """
                id: bert-42
                tenant: nlp
                gpus: 8
                gpuType: V100
                model: {name: my-model, skew: 0.3, memoryMiB: 12000}
                command: [python, train.py, --epochs, "3"]
                env: {DATA_DIR: /data}
                duration: 3600
                priority: 2
                maxRetries: 1
                """);

        assertThat(spec.jobId()).contains("bert-42");
        assertThat(spec.gpus()).isEqualTo(8);
        assertThat(spec.gpuType()).contains("V100");
        assertThat(spec.model()).isEqualTo("my-model");
        assertThat(spec.skew().getAsDouble()).isEqualTo(0.3);
        assertThat(spec.gpuMemoryMiB()).contains(12000);
        assertThat(spec.command()).containsExactly("python", "train.py", "--epochs", "3");
        assertThat(spec.env()).containsEntry("DATA_DIR", "/data");
        assertThat(spec.expectedDurationSeconds().getAsLong()).isEqualTo(3600);
        assertThat(spec.priority()).isEqualTo(2);
        assertThat(spec.maxRetries()).isEqualTo(1);
        assertThat(spec.problems()).isEmpty();
    }

    @Test
    void shouldReadJsonAndRunStringCommandWithShellWhenCommandIsOneString() {
        JobSpec spec = JobSpecFile.parse("job.json", """
                {"tenant": "vision", "gpus": 2, "model": "resnet50", "command": "python train.py > log"}
                """);

        assertThat(spec.command()).containsExactly("sh", "-c", "python train.py > log");
        assertThat(spec.jobId()).isEmpty();
    }

    @Test
    void shouldNameUnknownFieldsAndBadTypesWhenFileIsWrong() {
        assertThatThrownBy(() -> JobSpecFile.parse("job.yaml", """
                tenant: nlp
                gpu: 8
                gpus: many
                model: {name: x, colour: red}
                """))
                .isInstanceOf(JobSpecFile.JobSpecException.class)
                .hasMessageContaining("job.yaml")
                .hasMessageContaining("unknown field 'gpu'")
                .hasMessageContaining("unknown field 'model.colour'")
                .hasMessageContaining("gpus must be a whole number, got 'many'");
    }

    @Test
    void shouldRefuseTextThatIsNotAMappingWhenFileHoldsAList() {
        assertThatThrownBy(() -> JobSpecFile.parse("job.yaml", "- a\n- b\n"))
                .hasMessageContaining("must hold one mapping");
    }
}
