package io.quanta.streams;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of this build, recorded in the audit log's configuration and printed by {@code quanta --version}: the
 * Maven project version and the git commit it was built from (stamped at build time), e.g.
 * {@code 0.1.0-SNAPSHOT (commit 1a2b3c4d5e6f)}, with {@code , modified} when the working tree had uncommitted
 * changes. Two builds of the same snapshot version from different code therefore record different versions.
 */
public final class SoftwareVersion {

    /** What {@link #current} says when the build did not stamp its version. */
    public static final String UNKNOWN = "unknown";

    private static final String CURRENT = render(load());

    private SoftwareVersion() {
    }

    /** The version of this build; {@code unknown} when the build did not stamp it. */
    public static String current() {
        return CURRENT;
    }

    /** The version text of stamped properties ({@code version}, {@code commit}, {@code dirty}); unstamped: left out. */
    static String render(Properties props) {
        String version = stamped(props, "version");
        if (version == null) {
            return UNKNOWN;
        }
        String commit = stamped(props, "commit");
        if (commit == null) {
            return version;
        }
        return version + " (commit " + commit + ("true".equals(stamped(props, "dirty")) ? ", modified)" : ")");
    }

    private static String stamped(Properties props, String key) {
        String value = props.getProperty(key, "").trim();
        return value.isEmpty() || value.startsWith("${") ? null : value;
    }

    private static Properties load() {
        Properties props = new Properties();
        try (InputStream in = SoftwareVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                props.load(in);
            }
            return props;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
