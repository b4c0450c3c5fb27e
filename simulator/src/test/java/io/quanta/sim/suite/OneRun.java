package io.quanta.sim.suite;

import io.quanta.sim.Simulator;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.topology.TopologyScheduler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** One column of the suite on one input through the real topology, kept in a directory, for tests of its files. */
record OneRun(Path dir, SuiteInput input, String label) {

    /** Runs it, or with {@code resume} reads it back from its files when they are there. */
    RunResult run(boolean resume) {
        return new SuiteRunner(new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime),
                FidelityMode.REALISTIC, dir, resume, List.of(), 1,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .run(List.of(input), List.of(RunSpec.of(label))).get(input.id()).get(label);
    }

    /** The directory of the run's files. */
    Path runDir() {
        return dir.resolve(input.id()).resolve(label);
    }
}
