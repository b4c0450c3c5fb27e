package io.quanta.cli;

/**
 * Exit codes of every {@code quanta} command, as users of kubectl and sbatch expect: 0 success, 1 failure (cluster
 * unreachable, job not found, a watched job that did not finish), 2 bad usage or input (nothing was done), 3 drift
 * found by {@code topics apply}, 130 interrupted (Ctrl-C).
 */
public final class ExitCodes {

    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int USAGE = 2;
    public static final int DRIFT = 3;
    public static final int INTERRUPTED = 130;

    private ExitCodes() {
    }
}
