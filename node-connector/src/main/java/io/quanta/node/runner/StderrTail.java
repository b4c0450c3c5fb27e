package io.quanta.node.runner;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Reads the last lines of a (possibly large) log file, for FAILED messages. */
public final class StderrTail {

    private static final int MAX_BYTES = 16 * 1024;

    private StderrTail() {
    }

    /** Up to {@code maxLines} last non-blank lines of the file, joined by newlines; empty if there is no file. */
    public static String lastLines(Path file, int maxLines) {
        if (!Files.isRegularFile(file)) {
            return "";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            int size = (int) Math.min(length, MAX_BYTES);
            byte[] buffer = new byte[size];
            in.seek(length - size);
            in.readFully(buffer);
            List<String> lines = Arrays.stream(new String(buffer, StandardCharsets.UTF_8).split("\\R"))
                    .filter(l -> !l.isBlank())
                    .toList();
            if (size < length && !lines.isEmpty()) {
                lines = lines.subList(1, lines.size());
            }
            return String.join("\n", lines.subList(Math.max(0, lines.size() - maxLines), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }
}
