package io.quanta.streams.status;

import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** {@link StateAccess} over a TopologyTestDriver's stores, with a chosen owner for every key. */
final class DriverStateAccess implements StateAccess {

    private final TopologyTestDriver driver;
    private final Optional<HostInfo> owner;

    DriverStateAccess(TopologyTestDriver driver, Optional<HostInfo> owner) {
        this.driver = driver;
        this.owner = owner;
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
        return driver.getKeyValueStore(name);
    }

    @Override
    public Optional<HostInfo> remoteOwner(String store, String key) {
        return owner;
    }

    @Override
    public List<HostInfo> otherInstances() {
        return owner.stream().toList();
    }
}
