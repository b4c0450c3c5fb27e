package io.quanta.streams.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.streams.StoreSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;

class HostStoreTest {

    private final HostStore<String> store = new HostStore<>(new StoreSpec<>("s", Serdes.String()));

    @Test
    void shouldOrderKeysByTheirUtf8BytesAsKafkasStoresDo() {
        // String order puts U+1F600 (surrogates D83D DE00) before U+FF21; UTF-8 bytes (F0 9F.. against EF BC..)
        // put it after: Kafka's stores order by the bytes
        store.put("c|\uD83D\uDE00", "emoji");
        store.put("c|\uFF21", "fullwidth");
        store.put("c|a", "ascii");

        assertThat(values(store.all())).containsExactly("ascii", "fullwidth", "emoji");
    }

    @Test
    void shouldScanAPrefixAndAnInclusiveRange() {
        store.put("a|1", "a1");
        store.put("b|1", "b1");
        store.put("b|2", "b2");
        store.put("c|1", "c1");

        assertThat(values(store.prefixScan("b|", new StringSerializer()))).containsExactly("b1", "b2");
        assertThat(values(store.range("a|1", "b|2"))).containsExactly("a1", "b1", "b2");
        assertThat(values(store.range("c", "a"))).isEmpty();
    }

    @Test
    void shouldDeleteOnANullPutAndSkipKeysDeletedWhileIterating() {
        store.put("k1", "v1");
        store.put("k2", "v2");
        store.put("k3", "v3");
        store.put("k1", null);

        List<String> seen = new ArrayList<>();
        try (KeyValueIterator<String, String> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<String, String> kv = it.next();
                seen.add(kv.value);
                store.delete("k3");
            }
        }
        assertThat(seen).containsExactly("v2");
        assertThat(store.get("k1")).isNull();
        assertThat(store.approximateNumEntries()).isEqualTo(1);
    }

    private static List<String> values(KeyValueIterator<String, String> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }
}
