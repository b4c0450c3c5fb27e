package io.quanta.node.testing;

import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.AttemptLaunch;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Real job command lines for process tests: the Python example and the shell scripts of the test resources. */
public final class Jobs {

    private Jobs() {
    }

    /** The SDK directory (set by the build; falls back to the source tree). */
    public static Path sdkDir() {
        String dir = System.getProperty("quanta.sdk.python.dir");
        Path path = dir != null ? Path.of(dir) : Path.of("..", "sdk", "python");
        if (!Files.isDirectory(path)) {
            throw new AssertionError("Python SDK not found at " + path.toAbsolutePath());
        }
        return path.toAbsolutePath().normalize();
    }

    /** {@code python3 train_example.py --no-torch <args>}. */
    public static List<String> example(String... args) {
        List<String> argv = new ArrayList<>(List.of("python3", sdkDir().resolve("examples/train_example.py")
                .toString(), "--no-torch"));
        argv.addAll(List.of(args));
        return argv;
    }

    /** {@code /bin/sh <script from test resources> <args>}. */
    public static List<String> script(String name, String... args) {
        try {
            Path script = Path.of(Jobs.class.getResource("/jobs/" + name).toURI());
            List<String> argv = new ArrayList<>(List.of("/bin/sh", script.toString()));
            argv.addAll(List.of(args));
            return argv;
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    /** A launch of {@code argv} on GPU 0. */
    public static AttemptLaunch launch(AttemptId id, List<String> argv) {
        return launch(id, argv, Optional.empty(), List.of(0), Map.of());
    }

    public static AttemptLaunch launch(AttemptId id, List<String> argv, Optional<String> checkpoint,
                                       List<Integer> gpus, Map<String, String> env) {
        return new AttemptLaunch(id, gpus, argv, env, checkpoint, Commands.profile("resnet50", 0.1, 0),
                OptionalLong.empty(), List.of(), List.of());
    }

    /** Kills a process and everything under it, and waits until they are gone (test clean-up). */
    public static void killTree(long pid) {
        ProcessHandle.of(pid).ifPresent(h -> {
            List<ProcessHandle> tree = new ArrayList<>(h.descendants().toList());
            tree.add(h);
            tree.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle p : tree) {
                try {
                    p.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new AssertionError("process " + p.pid() + " did not end", e);
                }
            }
        });
    }
}
