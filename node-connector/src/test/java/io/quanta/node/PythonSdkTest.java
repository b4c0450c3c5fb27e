package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.node.testing.Jobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs the Python SDK's own unit tests (standard-library unittest) as part of the build. */
class PythonSdkTest {

    @Test
    void shouldPassThePythonSdkUnitTests() throws IOException, InterruptedException {
        Process python = new ProcessBuilder("python3", "-m", "unittest", "discover", "-s",
                Jobs.sdkDir().resolve("tests").toString())
                .redirectErrorStream(true)
                .start();
        boolean ended = python.waitFor(120, TimeUnit.SECONDS);
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ended) {
            python.destroyForcibly();
        }

        assertThat(ended).as("python unittest finished").isTrue();
        assertThat(python.exitValue()).as(output).isZero();
        assertThat(output).contains("OK");
    }
}
