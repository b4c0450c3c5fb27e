package io.quanta.embedded.bench;

import io.quanta.embedded.ApicurioRegistryProcess;
import io.quanta.embedded.EmbeddedKafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * Start-up time of the embedded broker and of the Apicurio registry, each started alone, {@code runs} times (first
 * argument, default 3); prints a table (min, median, max in ms). Not a test: run it by hand, see docs/benchmarks.md.
 */
public final class StartupBenchmark {

    private StartupBenchmark() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        List<Long> broker = measure(runs, () -> {
            try (EmbeddedKafkaBroker b = EmbeddedKafkaBroker.builder().build().start()) {
                return b.startupTime();
            }
        });
        List<Long> registry = measure(runs, () -> {
            try (ApicurioRegistryProcess r = ApicurioRegistryProcess.create(Duration.ofMinutes(3)).start()) {
                return r.startupTime();
            }
        });
        System.out.printf("%-28s %5s %8s %8s %8s%n", "component (started alone)", "runs", "min ms", "median", "max ms");
        row("embedded KRaft broker", broker);
        row("Apicurio registry (ready)", registry);
    }

    private static List<Long> measure(int runs, Supplier<Duration> once) {
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            millis.add(once.get().toMillis());
        }
        Collections.sort(millis);
        return millis;
    }

    private static void row(String name, List<Long> sorted) {
        System.out.printf("%-28s %5d %8d %8d %8d%n", name, sorted.size(), sorted.getFirst(),
                sorted.get(sorted.size() / 2), sorted.getLast());
    }
}
