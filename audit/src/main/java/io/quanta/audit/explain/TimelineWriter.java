package io.quanta.audit.explain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.Locale;

/** Renders a {@link JobTimeline} as a table or as JSON. */
public final class TimelineWriter {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TimelineWriter() {
    }

    /** A table, one line per entry, preceded by the replay verdict. */
    public static void table(JobTimeline t, PrintStream out) {
        out.println("job " + t.jobId() + " in cell " + t.cellId() + ": " + t.entries().size() + " entries; "
                + verdict(t));
        String format = "%-24s %7s %6s  %-44s %-10s %5s %14s  %s%n";
        out.printf(Locale.ROOT, format, "TIME", "OFFSET", "SEQ", "WHAT", "STATE", "QUEUE", "ATTAINED GPU-s",
                "REASON");
        for (TimelineEntry e : t.entries()) {
            out.printf(Locale.ROOT, format, e.time(), e.inboxOffset(), e.isDecision() ? Long.toString(e.seq()) : "-",
                    e.what(), e.state(), e.queueLevel(), String.format(Locale.ROOT, "%.1f", e.attainedGpuSeconds()),
                    e.reason());
        }
    }

    /** The timeline as one JSON document. */
    public static void json(JobTimeline t, PrintStream out) {
        ObjectNode root = JSON.createObjectNode();
        root.put("jobId", t.jobId());
        root.put("cellId", t.cellId());
        ObjectNode replay = root.putObject("replay");
        replay.put("reproduced", t.replay().reproduced());
        replay.put("diverged", t.replay().diverged());
        ArrayNode entries = root.putArray("entries");
        for (TimelineEntry e : t.entries()) {
            ObjectNode n = entries.addObject();
            n.put("time", e.time().toString());
            n.put("inboxOffset", e.inboxOffset());
            if (e.isDecision()) {
                n.put("seq", e.seq());
            }
            n.put("what", e.what());
            n.put("state", e.state());
            n.put("queueLevel", e.queueLevel());
            n.put("attainedGpuSeconds", e.attainedGpuSeconds());
            n.put("reason", e.reason());
        }
        try {
            out.println(JSON.writeValueAsString(root));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot render the timeline as JSON", e);
        }
    }

    private static String verdict(JobTimeline t) {
        return t.replay().allReproduced()
                ? "replay reproduced all " + t.replay().reproduced() + " decisions of the cell, so the state and "
                        + "service figures are the scheduler's own"
                : "WARNING: replay diverged (" + t.replay().diverged() + " decisions; run `quanta audit replay`): "
                        + "state and service figures after the first divergence are the replay's";
    }
}
