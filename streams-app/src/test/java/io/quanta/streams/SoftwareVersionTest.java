package io.quanta.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SoftwareVersionTest {

    private static Properties props(String... keyValues) {
        Properties props = new Properties();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            props.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    @Test
    void shouldNameTheCommitAndWhetherTheTreeWasModified() {
        assertThat(SoftwareVersion.render(props("version", "1.2.0", "commit", "0123456789ab", "dirty", "false")))
                .isEqualTo("1.2.0 (commit 0123456789ab)");
        assertThat(SoftwareVersion.render(props("version", "1.2.0", "commit", "0123456789ab", "dirty", "true")))
                .isEqualTo("1.2.0 (commit 0123456789ab, modified)");
    }

    @Test
    void shouldLeaveOutWhatTheBuildDidNotStamp() {
        assertThat(SoftwareVersion.render(props("version", "1.2.0", "commit", "${git.commit.id.abbrev}",
                "dirty", "${git.dirty}"))).isEqualTo("1.2.0");
        assertThat(SoftwareVersion.render(props("version", "${project.version}"))).isEqualTo("unknown");
        assertThat(SoftwareVersion.render(props())).isEqualTo("unknown");
    }

    @Test
    void shouldCarryTheCommitWhenBuiltFromAGitCheckout() {
        String current = SoftwareVersion.current();

        assertThat(current).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?( \\(commit [0-9a-f]{12}(, modified)?\\))?");
        if (insideGitCheckout()) {
            assertThat(current).contains("(commit ");
        }
    }

    private static boolean insideGitCheckout() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(".git"))) {
                return true;
            }
        }
        return false;
    }
}
