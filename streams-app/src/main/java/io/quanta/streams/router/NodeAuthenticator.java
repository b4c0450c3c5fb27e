package io.quanta.streams.router;

import io.quanta.topics.auth.NodeMac;
import io.quanta.topics.auth.NodeSecret;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Node authentication at the routers (on when {@code scheduler.node.secret.file} is set): a heartbeat, job event or
 * telemetry record counts only when the node it names is admitted (its latest record on
 * {@code quanta.nodes.admissions}, held in a global store) and the record carries a {@link NodeMac} that verifies
 * under that node's key; a heartbeat's epoch may not be more than a day ahead of its (broker) time, so no record can
 * lock a node out with an absurd epoch. Anything else is refused with the reason (a dead letter) and changes nothing.
 *
 * @param <V> the decoded record type
 */
public final class NodeAuthenticator<V> {

    /** Largest lead of a heartbeat's epoch (connector start time in ms) over the record's time. */
    static final Duration MAX_EPOCH_LEAD = Duration.ofDays(1);

    private final String topicId;
    private final Function<V, String> nodeIdOf;
    private final ToLongFunction<V> epochOf;
    private final NodeSecret secret;
    private final String admissionsStore;
    private KeyValueStore<String, String> admissions;

    /**
     * @param topicId the logical topic the MAC covers ({@code heartbeats}, {@code events}, {@code telemetry})
     * @param nodeIdOf the node a record names
     * @param epochOf the connector epoch a record claims, or null when the record has none to check
     * @param admissionsStore the global store of admitted nodes
     */
    public NodeAuthenticator(String topicId, Function<V, String> nodeIdOf, ToLongFunction<V> epochOf,
                             NodeSecret secret, String admissionsStore) {
        this.topicId = topicId;
        this.nodeIdOf = nodeIdOf;
        this.epochOf = epochOf;
        this.secret = secret;
        this.admissionsStore = admissionsStore;
    }

    @SuppressWarnings("unchecked")
    void init(Function<String, StateStore> stores) {
        admissions = (KeyValueStore<String, String>) stores.apply(admissionsStore);
    }

    /** Why the record does not count, or empty when it comes from the admitted node it names. */
    Optional<String> refusal(Record<byte[], byte[]> raw, V value) {
        String nodeId = nodeIdOf.apply(value);
        if (nodeId == null || admissions.get(nodeId) == null) {
            return Optional.of("node '" + nodeId + "' is not admitted (an operator admits it with 'quanta nodes "
                    + "admit " + nodeId + "')");
        }
        Header header = raw.headers().lastHeader(NodeMac.HEADER);
        if (header == null) {
            return Optional.of("no " + NodeMac.HEADER + " header: node authentication is on and node '" + nodeId
                    + "' must sign its records with its node.auth.key");
        }
        if (!NodeMac.verify(secret.keyOf(nodeId), topicId, raw.key(), raw.value(), header.value())) {
            return Optional.of(NodeMac.HEADER + " does not verify under node '" + nodeId + "''s key: forged, "
                    + "altered, or signed by another node");
        }
        if (epochOf != null) {
            long epoch = epochOf.applyAsLong(value);
            if (epoch > raw.timestamp() + MAX_EPOCH_LEAD.toMillis()) {
                return Optional.of("epoch " + epoch + " of node '" + nodeId + "' is more than " + MAX_EPOCH_LEAD
                        .toHours() + " h ahead of the record's time " + raw.timestamp() + " (epochs are the "
                        + "connector's start time in ms)");
            }
        }
        return Optional.empty();
    }
}
