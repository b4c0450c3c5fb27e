package io.quanta.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of a process (user + system) from {@code /proc/<pid>/stat}; 0 where there is no /proc. */
final class ProcessCpu {

    /** Clock ticks per second of /proc's figures ({@code getconf CLK_TCK}; 100 on Linux everywhere we run). */
    private static final double TICKS_PER_SECOND = 100.0;

    private ProcessCpu() {
    }

    /** Seconds of CPU the process used so far. */
    static double seconds(long pid) {
        try {
            String stat = Files.readAllLines(Path.of("/proc", Long.toString(pid), "stat")).getFirst();
            // the command name (field 2) may hold spaces: count fields after its closing parenthesis
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The 1-minute load average ({@code uptime}). */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (IOException e) {
            return "n/a";
        }
    }
}
