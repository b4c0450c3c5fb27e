package io.quanta.topics.admin;

import java.util.Objects;

/**
 * What {@link SchemasApply} found or did for one topic's value subject.
 *
 * @param subject the registry subject ({@code <topic>-value})
 * @param outcome REGISTERED: this build's schema is now the latest version (the subject was new, or the schema an
 *                evolution the registry accepts); OK: already the latest; DRIFT: the latest version differs and this
 *                schema cannot be registered over it
 * @param detail  what differs, or the registry's answer, for DRIFT; empty otherwise
 */
public record SchemaApplyResult(String subject, Outcome outcome, String detail) {

    /** See {@link SchemaApplyResult}. */
    public enum Outcome { REGISTERED, OK, DRIFT }

    public SchemaApplyResult {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
    }
}
