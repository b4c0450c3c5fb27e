package io.quanta.topics;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The characters a job id may have: letters, digits, '.', '_' and '-', at most 128, starting with a letter or digit.
 * One rule for everything that takes a job id: the CLI refuses other ids before sending, the scheduler's router rejects
 * submissions with them (REJECTED status and a dead letter). Such ids are safe in URLs, file names, logs and the
 * deterministic command ids ({@code job/attempt/TYPE/node}).
 */
public final class JobIds {

    /** The rule, as a pattern an id must match whole. */
    public static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    /** What the rule says, for messages. */
    public static final String RULE = "letters, digits, '.', '_' and '-' (at most 128, starting with a letter or digit)";

    private JobIds() {
    }

    /** Whether {@code jobId} follows the rule. */
    public static boolean isValid(String jobId) {
        return jobId != null && PATTERN.matcher(jobId).matches();
    }

    /** Longest part of an invalid id quoted in a reason (an id may be as long as the record allows). */
    static final int QUOTED_MAX = 64;

    /**
     * Why {@code jobId} is not a valid job id, or empty when it is. The reason quotes the id's first
     * {@link #QUOTED_MAX} characters with control characters escaped, so a hostile id neither bloats the reason (it
     * goes into the status and the dead letter) nor breaks a log line.
     */
    public static Optional<String> problem(String jobId) {
        return isValid(jobId) ? Optional.empty()
                : Optional.of("job id '" + quoted(jobId) + "' is not valid: use " + RULE);
    }

    private static String quoted(String jobId) {
        if (jobId == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        jobId.codePoints().limit(QUOTED_MAX).forEach(c -> {
            if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return jobId.codePointCount(0, jobId.length()) > QUOTED_MAX ? out + "... (" + jobId.length() + " chars)"
                : out.toString();
    }
}
