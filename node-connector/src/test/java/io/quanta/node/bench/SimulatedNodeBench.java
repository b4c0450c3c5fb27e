package io.quanta.node.bench;

import io.quanta.node.command.CommandHandler;
import io.quanta.node.command.InMemoryAttemptStore;
import io.quanta.node.model.ThroughputModel;
import io.quanta.node.runner.SimulatedJobRunner;
import io.quanta.node.testing.Commands;
import io.quanta.schemas.JobEvent;
import io.quanta.testing.MutableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How fast one simulated node (command handler + simulated runner on virtual time) turns commands into events, the
 * cost the simulator pays per node. Each round starts 8 one-GPU jobs (2 packed per GPU for the standard model),
 * suspends half of them, resumes them, and runs everything to completion. Prints a table; run with
 * {@code java -cp <test classpath> io.quanta.node.bench.SimulatedNodeBench [rounds]}.
 */
public final class SimulatedNodeBench {

    private SimulatedNodeBench() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        System.out.printf("%-22s %10s %10s %12s %14s%n", "model", "rounds", "events", "seconds", "events/s");
        for (int pass = 0; pass < 2; pass++) {
            for (String name : List.of("standard", "tiresias-compatible")) {
                run(name, rounds, pass == 1);
            }
        }
    }

    private static void run(String modelName, int rounds, boolean print) {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        MutableClock clock = new MutableClock(t0);
        SimulatedJobRunner runner = new SimulatedJobRunner("n1", ThroughputModel.named(modelName), n -> "r", 1.0, t0);
        List<JobEvent> events = new ArrayList<>();
        CommandHandler handler = new CommandHandler("n1", 1, runner, new InMemoryAttemptStore(), events::add, clock);
        long count = 0;
        long began = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            for (int j = 0; j < 8; j++) {
                handler.handle(Commands.simStart("n1", 1, "r" + r + "j" + j, 1, 100 + j)
                        .setGpuIndices(List.of(j % 4)).build());
            }
            step(runner, clock, 50);
            for (int j = 0; j < 8; j += 2) {
                handler.handle(Commands.suspend("n1", 1, "r" + r + "j" + j, 1));
            }
            drainAll(runner, clock);
            for (JobEvent e : List.copyOf(events)) {
                if (e.getType() == io.quanta.schemas.JobEventType.SUSPENDED) {
                    handler.handle(Commands.simStart("n1", 1, e.getJobId(), 2, 100).setGpuIndices(List.of(0))
                            .setCheckpointRef(e.getCheckpointRef()).build());
                }
            }
            drainAll(runner, clock);
            count += events.size();
            events.clear();
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        if (print) {
            System.out.printf("%-22s %10d %10d %12.2f %14.0f%n", modelName, rounds, count, seconds, count / seconds);
        }
    }

    private static void step(SimulatedJobRunner runner, MutableClock clock, long seconds) {
        clock.set(runner.now().plusSeconds(seconds));
        runner.advanceTo(clock.instant());
    }

    private static void drainAll(SimulatedJobRunner runner, MutableClock clock) {
        Optional<Instant> next;
        while ((next = runner.nextEventTime()).isPresent()) {
            clock.set(next.get());
            runner.advanceTo(next.get());
        }
    }
}
