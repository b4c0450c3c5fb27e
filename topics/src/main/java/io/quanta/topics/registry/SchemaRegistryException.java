package io.quanta.topics.registry;

import java.util.Optional;

/**
 * A schema-registry call that failed: either refused by the registry (HTTP 4xx, with the registry's error code and
 * message, e.g. 409 for an incompatible schema) or unreachable after all retries ({@link #status()} is then the last
 * 5xx status, or -1 for an I/O error).
 */
public final class SchemaRegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String subject;
    private final int status;
    private final int errorCode;
    private final String registryMessage;

    public SchemaRegistryException(String operation, String subject, int status, int errorCode,
            String registryMessage, Throwable cause) {
        super(describe(operation, subject, status, errorCode, registryMessage), cause);
        this.subject = subject;
        this.status = status;
        this.errorCode = errorCode;
        this.registryMessage = registryMessage;
    }

    /** The subject of the failed call, if it had one. */
    public Optional<String> subject() {
        return Optional.ofNullable(subject);
    }

    /** HTTP status of the last answer, or -1 when the registry could not be reached. */
    public int status() {
        return status;
    }

    /** The registry's {@code error_code} (e.g. 40401 subject not found, 40403 schema not found), or the status. */
    public int errorCode() {
        return errorCode;
    }

    /** The registry's own explanation. */
    public String registryMessage() {
        return registryMessage;
    }

    /** True for 404: unknown subject, version or schema id. */
    public boolean isNotFound() {
        return status == 404;
    }

    /** True for 409: the schema is incompatible with the subject's earlier versions. */
    public boolean isIncompatible() {
        return status == 409;
    }

    /** True when the registry refused the request (4xx); false when it was unavailable. */
    public boolean isClientError() {
        return status >= 400 && status < 500;
    }

    private static String describe(String operation, String subject, int status, int errorCode, String message) {
        String what = operation + (subject == null ? "" : " for subject '" + subject + "'");
        if (status < 0) {
            return "Schema registry unreachable during " + what + ": " + message;
        }
        return "Schema registry refused " + what + ": HTTP " + status
                + (errorCode != status ? " (error " + errorCode + ")" : "") + ": " + message;
    }
}
