package io.quanta.topics.serde;

import org.apache.kafka.common.serialization.Serde;
import org.apache.avro.specific.SpecificRecord;

/** Makes the value serde of a topic from the generated Avro class of its values. */
public interface SerdeFactory {

    /**
     * A serde for values of {@code type}.
     *
     * @param acceptTombstones whether null bytes read as null (compacted topics) instead of being malformed
     */
    <T extends SpecificRecord> Serde<T> valueSerde(Class<T> type, boolean acceptTombstones);
}
