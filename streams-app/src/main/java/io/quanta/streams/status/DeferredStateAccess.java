package io.quanta.streams.status;

import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * A {@link StateAccess} bound later: the status API must be bound before Kafka Streams is created (its port goes into
 * {@code application.server}); until {@link #bind} every query fails as "not running yet" (HTTP 503).
 */
public final class DeferredStateAccess implements StateAccess {

    private volatile StateAccess delegate;

    /** Starts answering through {@code access}. */
    public void bind(StateAccess access) {
        this.delegate = access;
    }

    private StateAccess target() {
        StateAccess d = delegate;
        if (d == null) {
            throw new IllegalStateException("the scheduler is not running yet");
        }
        return d;
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
        return target().store(name);
    }

    @Override
    public Optional<HostInfo> remoteOwner(String store, String key) {
        return target().remoteOwner(store, key);
    }

    @Override
    public List<HostInfo> otherInstances() {
        return target().otherInstances();
    }
}
