package io.quanta.streams.status;

import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@link StateAccess} over a running {@link KafkaStreams}: interactive queries of the local active stores, owners
 * from the streams metadata ({@code application.server} of every instance). The cell stores are partitioned like the
 * inbox (by cell id), the router's job store like the submissions (by job id), so the owner of a cell is the owner of
 * the key {@code cellId} and the owner of a job route the owner of the key {@code jobId}.
 */
public final class StreamsStateAccess implements StateAccess {

    private static final StringSerializer KEYS = new StringSerializer();

    private final KafkaStreams streams;
    private final HostInfo self;

    public StreamsStateAccess(KafkaStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore()));
    }

    @Override
    public Optional<HostInfo> remoteOwner(String store, String key) {
        KeyQueryMetadata metadata = streams.queryMetadataForKey(store, key, KEYS);
        if (metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)) {
            throw new IllegalStateException("the owner of " + key + " in " + store + " is not known right now");
        }
        HostInfo owner = metadata.activeHost();
        return owner.equals(self) ? Optional.empty() : Optional.of(owner);
    }

    @Override
    public List<HostInfo> otherInstances() {
        return streams.metadataForAllStreamsClients().stream().map(StreamsMetadata::hostInfo)
                .filter(h -> !h.equals(self)).distinct().toList();
    }
}
