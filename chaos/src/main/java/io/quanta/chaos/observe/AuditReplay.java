package io.quanta.chaos.observe;

import io.quanta.cli.QuantaMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * {@code quanta audit replay --cell CELL -c PROPS}, run in this JVM through {@link QuantaMain#commandLine()}: the
 * cell's inbox replayed through a fresh scheduler and every decision compared with the recorded one.
 *
 * @param exitCode   0 when every decision was reproduced
 * @param reproduced decisions reproduced byte for byte (-1 when the output did not say)
 * @param diverged   decisions that differ (-1 when the output did not say)
 * @param output     what the command printed (standard output, then error)
 */
public record AuditReplay(int exitCode, long reproduced, long diverged, String output) {

    private static final Pattern SUMMARY = Pattern.compile("(\\d+) decisions reproduced, (\\d+) diverged");

    public static AuditReplay run(Path properties, String cell) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine line = QuantaMain.commandLine();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        int code = line.execute("audit", "replay", "--cell", cell, "-c", properties.toString());
        String text = out + err.toString();
        Matcher m = SUMMARY.matcher(text);
        return m.find() ? new AuditReplay(code, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), text)
                : new AuditReplay(code, -1, -1, text);
    }

    /** Every decision reproduced, and at least one compared. */
    public boolean allReproduced() {
        return exitCode == 0 && diverged == 0 && reproduced > 0;
    }
}
