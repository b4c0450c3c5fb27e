package io.quanta.topics.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * The schema registry could not be reached or answered with a server error, so a record could not be read or written
 * although it may be fine. Unlike {@link MalformedRecordException}, retrying can help: the scheduler fails the task
 * (Kafka Streams restarts the stream thread and reads the record again) instead of dead-lettering a good record, and
 * the node connector retries the command.
 */
public final class RegistryUnavailableException extends SerializationException {

    private static final long serialVersionUID = 1L;

    public RegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** True when {@code error} or one of its causes is a {@link RegistryUnavailableException}. */
    public static boolean isCause(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof RegistryUnavailableException) {
                return true;
            }
            if (t.getCause() == t) {
                return false;
            }
        }
        return false;
    }
}
