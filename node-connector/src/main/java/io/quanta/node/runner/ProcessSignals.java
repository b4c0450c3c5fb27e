package io.quanta.node.runner;

import java.io.File;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a POSIX signal to a process. The JDK can only send SIGTERM ({@link ProcessHandle#destroy()}) and SIGKILL
 * ({@link ProcessHandle#destroyForcibly()}); other signals, such as SIGUSR1, go through the shell's {@code kill}.
 */
public final class ProcessSignals {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessSignals.class);

    private ProcessSignals() {
    }

    /**
     * Sends {@code signal} (a name without the SIG prefix, e.g. {@code USR1}) to the process.
     *
     * @return whether {@code kill} reported success
     */
    public static boolean send(ProcessHandle process, String signal) {
        if (!signal.matches("[A-Z0-9]+")) {
            throw new IllegalArgumentException("signal must be a name such as USR1, got '" + signal + "'");
        }
        boolean ok = run("kill -" + signal + " \"$1\"", process.pid(), signal);
        if (!ok) {
            LOG.warn("kill -{} {} failed (the process may have ended)", signal, process.pid());
        }
        return ok;
    }

    /**
     * Sends {@code signal} to every process of the process group {@code pgid} ({@code kill -SIG -- -pgid}).
     *
     * @return whether {@code kill} reported success (false when the group is already empty)
     */
    public static boolean sendToGroup(long pgid, String signal) {
        if (!signal.matches("[A-Z0-9]+")) {
            throw new IllegalArgumentException("signal must be a name such as KILL, got '" + signal + "'");
        }
        return run("kill -" + signal + " -- \"-$1\"", pgid, signal);
    }

    private static boolean run(String script, long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("/bin/sh", "-c", script, "kill", Long.toString(pid))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                LOG.warn("kill -{} {} did not return", signal, pid);
                return false;
            }
            return kill.exitValue() == 0;
        } catch (IOException e) {
            LOG.warn("cannot run kill -{} {}: {}", signal, pid, e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
