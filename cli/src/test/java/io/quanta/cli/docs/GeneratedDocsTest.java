package io.quanta.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.topics.config.ConfigReference;
import io.quanta.topics.config.ConfigSections;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The generated pages under docs/ must be what the generators print now: regenerate them when this fails. */
class GeneratedDocsTest {

    private static final Path DOCS = Path.of("..", "docs");

    @Test
    void shouldMatchCommittedConfigurationReferenceWhenGenerated() throws IOException {
        String committed = Files.readString(DOCS.resolve("configuration.md"));

        assertThat(committed)
                .as("docs/configuration.md is stale: regenerate it with "
                        + "'bin/quanta config reference > docs/configuration.md'")
                .isEqualTo(ConfigReference.markdown(ConfigSections.discover()));
    }

    @Test
    void shouldPutANodeWithoutACellIntoTheSchedulersDefaultCellWhenBothUseDefaults() {
        ConfigSections all = ConfigSections.discover();

        assertThat(all.key("node.cell").orElseThrow().defaultValue)
                .as("node.cell must default to the cell that gets the jobs no routing rule claims")
                .isEqualTo(all.key("scheduler.routing.default.cell").orElseThrow().defaultValue);
    }

    @Test
    void shouldMatchCommittedTopicReferenceWhenGenerated() throws IOException {
        String committed = Files.readString(DOCS.resolve("topics.md"));

        assertThat(committed)
                .as("docs/topics.md is stale: regenerate it with 'bin/quanta docs topics > docs/topics.md'")
                .isEqualTo(TopicReference.markdown());
    }

    @Test
    void shouldDocumentEveryRecordReachableFromTopicValuesWhenRendering() {
        assertThat(TopicReference.recordNames()).contains("JobRequest", "JobSubmitted", "JobCancelRequested",
                "ModelProfile", "NodeHeartbeat", "GpuInfo", "RunningAttempt", "CellInput", "SchedulingDecision",
                "JobStatus", "DeadLetter", "GpuRef").doesNotHaveDuplicates();
    }

    @Test
    void shouldRenderLogicalAndUnionTypesReadablyWhenDescribingFields() {
        String page = TopicReference.markdown();

        assertThat(page).contains("| `submittedAt` | long (timestamp-millis) | (required) |")
                .contains("| `gpuType` | null or string | `null` |")
                .contains("| `quanta.cells.inbox` | cell id |");
    }
}
