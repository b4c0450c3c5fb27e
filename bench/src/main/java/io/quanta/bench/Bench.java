package io.quanta.bench;

import io.quanta.streams.SchedulerConfigSection;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every benchmark of one invocation shares: the infrastructure process, the run directory, where tables go, and
 * the scheduler settings under test (the floor gets the same commit interval and poll time).
 */
record Bench(Infrastructure infra, Path runDir, PrintStream out, String policy, long commitIntervalMs, long pollMs) {

    /** The scheduler settings every deployment of this run starts from. */
    Map<String, String> schedulerSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(SchedulerConfigSection.POLICY, policy);
        s.put(SchedulerConfigSection.COMMIT_INTERVAL_MS, Long.toString(commitIntervalMs));
        s.put(SchedulerConfigSection.POLL_MS, Long.toString(pollMs));
        return s;
    }

    /** A line saying where and under what load a figure was taken. */
    String machine() {
        return String.format("machine: %d cores, Java %s, load average (1 / 5 / 15 min) %s",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                ProcessCpu.loadAverage());
    }
}
