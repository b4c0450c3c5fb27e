package io.quanta.topics.serde;

import org.apache.avro.util.ClassSecurityValidator;
import org.apache.avro.util.ClassSecurityValidator.ClassSecurityPredicate;

/**
 * Makes Avro 1.12's {@link ClassSecurityValidator} trust the generated classes of {@code io.quanta.schemas} (on top
 * of whatever it trusts already), so that specific readers may instantiate them. Idempotent.
 */
public final class AvroTrust {

    private static final String TRUSTED_PACKAGE = "io.quanta.schemas.";
    private static volatile boolean installed;

    private AvroTrust() {
    }

    /** Installs the trust once per JVM. */
    public static void trustQuantaSchemas() {
        if (installed) {
            return;
        }
        synchronized (AvroTrust.class) {
            if (!installed) {
                ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
                ClassSecurityPredicate quanta = c -> c.getName().startsWith(TRUSTED_PACKAGE);
                ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(previous, quanta));
                installed = true;
            }
        }
    }
}
