package io.quanta.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The Kafka and Apicurio versions this module was built against (from the parent POM). */
final class Versions {

    private static final Properties VERSIONS = load();

    private Versions() {
    }

    static String apicurio() {
        return VERSIONS.getProperty("apicurio.version");
    }

    static String kafka() {
        return VERSIONS.getProperty("kafka.version");
    }

    private static Properties load() {
        Properties props = new Properties();
        try (InputStream in = Versions.class.getResourceAsStream("versions.properties")) {
            if (in == null) {
                throw new IllegalStateException("versions.properties missing from the quanta-embedded jar");
            }
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props;
    }
}
