package io.quanta.sim.suite;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.report.JobCsvWriter;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a policy with its parameters decides, in one digest: its per-job outcomes and decision counts on a fixed probe
 * (160 synthetic jobs of 1 to 16 GPUs arriving over about two hours on a 1x3x8 cell) under one model. The digest of
 * {@code GoldenDecisionsTest}, which guards the baselines with it. Two builds, or two columns, with the same digest
 * decide alike on the probe; a kept run whose digest differs from this build's for its column was made by code or
 * parameters that decide differently, and the suite does not read it back as that column ({@link SuiteRunner}). A
 * guard, not a proof: a change that alters no decision on the probe goes unnoticed.
 */
public final class DecisionFingerprint {

    /** The probe's cell. */
    public static final ClusterShape CLUSTER = ClusterShape.parse("1x3x8");
    /** The seed of the probe's model mix. */
    public static final long SEED = 3;

    private static final Trace PROBE = probe();

    private DecisionFingerprint() {
    }

    /** The probe: 160 jobs, seeded, sizes drawn from 1 (most), 2, 4, 8 and 16 GPUs, 20 s to about 6 hours each. */
    public static Trace probe() {
        Random random = new Random(20261122);
        List<TraceJob> jobs = new ArrayList<>();
        long t = 0;
        int[] sizes = {1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 8, 16};
        for (int i = 0; i < 160; i++) {
            t += random.nextInt(90);
            long duration = 20 + (long) Math.exp(3 + random.nextDouble() * 7);
            jobs.add(new TraceJob(String.format("g%03d", i), t, sizes[random.nextInt(sizes.length)], duration, "vc"));
        }
        return new Trace("synthetic", jobs);
    }

    /** The digest of {@code policyParams} (with {@code policy}) on the probe under {@code mode}. */
    public static String of(Simulator simulator, FidelityMode mode, Map<String, String> policyParams) {
        return digest(simulator.run(PROBE, CLUSTER, mode, policyParams, SEED, ProgressListener.NONE));
    }

    /**
     * The digests of one simulator under one model, each column's computed once however many times it is asked for:
     * one memo serves every shift of a suite run and its {@code --bounds-only}, so a column is probed once per model.
     */
    public static final class Memo {

        private final Simulator simulator;
        private final FidelityMode mode;
        private final Map<Map<String, String>, String> digests = new ConcurrentHashMap<>();

        public Memo(Simulator simulator, FidelityMode mode) {
            this.simulator = simulator;
            this.mode = mode;
        }

        /** {@link DecisionFingerprint#of} for {@code policyParams}, computed on the first call. */
        public String of(Map<String, String> policyParams) {
            return digests.computeIfAbsent(policyParams, params -> DecisionFingerprint.of(simulator, mode, params));
        }
    }

    /**
     * SHA-256, in hex, of the run's per-job CSV without its {@code running_s} column, a line break and its decision
     * counts by type. The column came after the digests of the kept runs and of {@code GoldenDecisionsTest}; it follows
     * from the decisions and the model like the other outcomes, so leaving it out loses nothing and keeps them valid.
     */
    public static String digest(SimulationRun run) {
        StringWriter csv = new StringWriter();
        try {
            JobCsvWriter.write(csv, run.outcomes(), false);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        String text = csv + "\n" + new TreeMap<>(run.decisionCounts());
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
