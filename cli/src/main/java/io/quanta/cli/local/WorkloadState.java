package io.quanta.cli.local;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where the workload of a data directory stands ({@code workload.properties}), so that a restart resumes it: which
 * trace at which speed, the run number (it prefixes job ids: {@code w<run>-}), how many jobs were submitted and how
 * much simulated time had passed, and whether it finished.
 *
 * @param run run number, from 1
 * @param trace the trace file, absolute
 * @param limit the job limit of the run, 0 = all
 * @param speed the speed of the run
 * @param submitted jobs submitted so far
 * @param simulatedSeconds simulated time reached
 * @param finished whether every job ended
 */
public record WorkloadState(int run, Path trace, int limit, double speed, int submitted, double simulatedSeconds,
                            boolean finished) {

    static final String FILE = "workload.properties";

    /** The state saved in {@code dir}, if any. */
    public static java.util.Optional<WorkloadState> load(DataDir dir) {
        Map<String, String> p = dir.read(FILE);
        if (!p.containsKey("run")) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new WorkloadState(Integer.parseInt(p.get("run")), Path.of(p.get("trace")),
                Integer.parseInt(p.getOrDefault("limit", "0")), Double.parseDouble(p.get("speed")),
                Integer.parseInt(p.get("submitted")), Double.parseDouble(p.get("simulated.seconds")),
                Boolean.parseBoolean(p.get("finished"))));
    }

    /**
     * The state to start from for {@code trace}: the saved run when it is the same unfinished workload (resume), else
     * a new run numbered after the saved one.
     */
    public static WorkloadState next(java.util.Optional<WorkloadState> saved, Path trace, int limit, double speed) {
        Path file = trace.toAbsolutePath().normalize();
        if (saved.isPresent() && !saved.get().finished() && saved.get().trace().equals(file)
                && saved.get().limit() == limit && saved.get().speed() == speed) {
            return saved.get();
        }
        return new WorkloadState(saved.map(s -> s.run() + 1).orElse(1), file, limit, speed, 0, 0, false);
    }

    /** Whether this continues an earlier run. */
    public boolean resumed() {
        return submitted > 0;
    }

    /** The prefix of this run's job ids. */
    public String idPrefix() {
        return "w" + run + "-";
    }

    /** This state with progress. */
    public WorkloadState progressed(int submittedJobs, double simulated, boolean done) {
        return new WorkloadState(run, trace, limit, speed, submittedJobs, simulated, done);
    }

    /** Saves it in {@code dir}. */
    public void save(DataDir dir) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("run", Integer.toString(run));
        p.put("trace", trace.toString());
        p.put("limit", Integer.toString(limit));
        p.put("speed", Double.toString(speed));
        p.put("submitted", Integer.toString(submitted));
        p.put("simulated.seconds", String.format(Locale.ROOT, "%.3f", simulatedSeconds));
        p.put("finished", Boolean.toString(finished));
        dir.write(FILE, p, "quanta local workload progress");
    }
}
