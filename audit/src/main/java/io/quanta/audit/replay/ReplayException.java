package io.quanta.audit.replay;

/** The log cannot be replayed as it stands (truncated, no recorded configuration, unknown policy...). */
public final class ReplayException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ReplayException(String message) {
        super(message);
    }

    public ReplayException(String message, Throwable cause) {
        super(message, cause);
    }
}
