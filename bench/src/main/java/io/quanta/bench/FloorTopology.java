package io.quanta.bench;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The floor: the bare shape of Quanta's path from a submission to a command, with nothing in it. Hop 1 reads the
 * input topic and writes each record to the inbox topic keyed by one cell (as the routers do); hop 2 reads the inbox
 * and writes each measured record to the output topic keyed by the job id it carries (as the cell writes a START),
 * and drops the background records (ids starting {@code bg-}: as the cell writes nothing for a heartbeat or telemetry
 * that changes nothing). Exactly-once
 * v2, with the commit interval, poll time and session timeout the scheduler uses. Runs as a process of its own;
 * prints {@code floor state RUNNING} when it is.
 *
 * <p>Arguments: {@code bootstrap applicationId input inbox output commitIntervalMs pollMs stateDir}. A record's value
 * is the job id, a newline, then padding.
 */
public final class FloorTopology {

    /** The one key of the inbox hop (all of a cell's records go through one partition, as in Quanta). */
    static final String CELL = "cell-0";

    private FloorTopology() {
    }

    public static void main(String[] args) throws InterruptedException {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(args[2], Consumed.with(Serdes.String(), Serdes.ByteArray()))
                .selectKey((key, value) -> CELL)
                .to(args[3], Produced.with(Serdes.String(), Serdes.ByteArray()));
        builder.stream(args[3], Consumed.with(Serdes.String(), Serdes.ByteArray()))
                .filterNot((key, value) -> isBackground(value))
                .map((key, value) -> KeyValue.pair(jobId(value), value))
                .to(args[4], Produced.with(Serdes.String(), Serdes.ByteArray()));
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[1]);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, args[5]);
        props.put(StreamsConfig.POLL_MS_CONFIG, args[6]);
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[7]);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "15000");
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "5000");
        CountDownLatch stopped = new CountDownLatch(1);
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        streams.setStateListener((now, before) -> System.out.println("floor state " + now));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            stopped.countDown();
        }, "floor-shutdown"));
        streams.start();
        stopped.await();
    }

    /** The job id a floor record carries (its value up to the first newline). */
    static String jobId(byte[] value) {
        int end = 0;
        while (end < value.length && value[end] != '\n') {
            end++;
        }
        return new String(value, 0, end, StandardCharsets.UTF_8);
    }

    /** True for a background record (its id starts with {@code bg-}), which hop 2 drops. */
    static boolean isBackground(byte[] value) {
        return value.length > 3 && value[0] == 'b' && value[1] == 'g' && value[2] == '-';
    }

    /** A floor record for {@code jobId}, padded to {@code size} bytes (about a submission's size). */
    static byte[] value(String jobId, int size) {
        byte[] id = (jobId + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[Math.max(size, id.length)];
        System.arraycopy(id, 0, out, 0, id.length);
        return out;
    }
}
