package io.quanta.streams;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this build (from the Maven project version), recorded in the audit log's configuration. */
public final class SoftwareVersion {

    private static final String CURRENT = load();

    private SoftwareVersion() {
    }

    /** E.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} when the build did not stamp it. */
    public static String current() {
        return CURRENT;
    }

    private static String load() {
        try (InputStream in = SoftwareVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties props = new Properties();
            props.load(in);
            String version = props.getProperty("version", "unknown");
            return version.startsWith("${") ? "unknown" : version;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
