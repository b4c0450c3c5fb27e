package io.quanta.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrerequisitesTest {

    private static final Path DIR = Path.of("/data/quanta");

    @Test
    void shouldFindNothingWhenEverythingIsThere() {
        assertThat(Prerequisites.check(21, "21.0.8", DIR, 10L << 30, Map.of("status API", 8787), p -> true))
                .isEmpty();
    }

    @Test
    void shouldNameJavaVersionAndWhatToInstallWhenJavaIsTooOld() {
        List<String> problems = Prerequisites.check(17, "17.0.2 (/usr/lib/jvm/java-17)", DIR, 10L << 30, Map.of(),
                p -> true);

        assertThat(problems).singleElement().asString().contains("Java 21 or newer is needed",
                "this is Java 17.0.2", "JAVA_HOME");
    }

    @Test
    void shouldGiveFreeAndNeededSpaceWhenDiskIsShort() {
        List<String> problems = Prerequisites.check(25, "25", DIR, 300L << 20, Map.of(), p -> true);

        assertThat(problems).singleElement().asString().contains("/data/quanta", "300 MiB free", "1024 MiB needed",
                "--data-dir");
    }

    @Test
    void shouldNamePortAndItsUseWhenFixedPortIsTaken() {
        List<String> problems = Prerequisites.check(25, "25", DIR, 10L << 30, Map.of("status API", 8787,
                "metrics", 0), p -> p != 8787);

        assertThat(problems).singleElement().asString().contains("port 8787 (status API) is already in use");
    }

    @Test
    void shouldReuseLastPortsWhenStillFreeAndPickOthersWhenTaken() {
        LocalPorts ports = LocalPorts.choose(Map.of(LocalPorts.STATUS, 18787), Map.of(LocalPorts.BROKER, "19092",
                LocalPorts.REGISTRY, "18081"), p -> p != 18081);

        assertThat(ports.get(LocalPorts.STATUS)).isEqualTo(18787);
        assertThat(ports.get(LocalPorts.BROKER)).isEqualTo(19092);
        assertThat(ports.get(LocalPorts.REGISTRY)).isNotEqualTo(18081).isPositive();
        assertThat(ports.asProperties().values()).doesNotHaveDuplicates();
    }
}
