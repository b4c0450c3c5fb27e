package io.quanta.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code quanta} commands in-process with captured stdout and stderr (tests). */
final class CommandRunner {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Runs one command line and returns its exit code. */
    int run(String... args) {
        CommandLine cmd = QuantaMain.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }
}
