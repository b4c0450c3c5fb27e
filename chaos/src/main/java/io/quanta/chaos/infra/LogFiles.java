package io.quanta.chaos.infra;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;

/** Reading the children's log files: tails for failure messages, counts of lines that reveal a fault. */
public final class LogFiles {

    private LogFiles() {
    }

    /** The last {@code lines} lines of {@code file} (malformed UTF-8 replaced), or why it cannot be read. */
    public static String tail(Path file, int lines) {
        Deque<String> last = new ArrayDeque<>();
        try (BufferedReader reader = reader(file)) {
            String line;
            while ((line = reader.readLine()) != null) {
                last.addLast(line);
                if (last.size() > lines) {
                    last.removeFirst();
                }
            }
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
        return String.join("\n", last);
    }

    /** How many lines of the files contain any of {@code needles}. */
    public static long countLines(Collection<Path> files, List<String> needles) {
        long count = 0;
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                continue;
            }
            try (BufferedReader reader = reader(file)) {
                String line;
                while ((line = reader.readLine()) != null) {
                    String l = line;
                    if (needles.stream().anyMatch(l::contains)) {
                        count++;
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot read " + file, e);
            }
        }
        return count;
    }

    private static BufferedReader reader(Path file) throws IOException {
        return new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(file),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE)));
    }
}
