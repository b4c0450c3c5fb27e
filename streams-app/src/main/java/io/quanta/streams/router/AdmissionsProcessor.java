package io.quanta.streams.router;

import io.quanta.schemas.NodeAdmission;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the global store of admitted nodes from {@code quanta.nodes.admissions}: node id to the time it was admitted;
 * a revocation (or a tombstone) removes it. A record whose key and node id differ is ignored: the key is what
 * compaction keeps.
 */
public final class AdmissionsProcessor implements Processor<String, NodeAdmission, Void, Void> {

    private final String storeName;
    private KeyValueStore<String, String> admitted;

    public AdmissionsProcessor(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        admitted = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, NodeAdmission> record) {
        String nodeId = record.key();
        if (nodeId == null) {
            return;
        }
        NodeAdmission admission = record.value();
        if (admission == null || !admission.getAdmitted()) {
            admitted.delete(nodeId);
        } else if (nodeId.equals(admission.getNodeId())) {
            admitted.put(nodeId, Long.toString(admission.getAt().toEpochMilli()));
        }
    }
}
