package io.quanta.streams.status;

import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * How the status API reaches the scheduler's state: this instance's stores, and which instance owns a key (from the
 * Kafka Streams metadata). A single-instance or test implementation owns everything.
 */
public interface StateAccess {

    /** This instance's (active) view of a store. */
    <V> ReadOnlyKeyValueStore<String, V> store(String name);

    /**
     * The other instance that owns {@code key} of {@code store}, or empty when this instance owns it.
     *
     * @throws IllegalStateException when the owner is not known right now (rebalance, not yet running)
     */
    Optional<HostInfo> remoteOwner(String store, String key);

    /** The other instances of the application (for queries that gather from all of them). */
    List<HostInfo> otherInstances();
}
