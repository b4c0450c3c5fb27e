package io.quanta.chaos.scenario;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.JobCancelRequested;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.ModelProfile;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SourceRef;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Records built to hurt the scheduler, for one input topic or the cell inbox: random bytes, a wrong magic byte, an
 * unknown schema id, an Avro length prefix of gigabytes, truncated or trailing bytes, values near 1 MB, keys that are
 * not UTF-8, null values, and valid Avro with absurd content (negative GPUs, NaN, Long.MIN/MAX_VALUE, invalid cell
 * ids, unknown jobs and nodes); timestamps now, ahead (hours; under an hour on the inbox, where the broker refuses
 * more) or hours behind. Every one of them must end as a dead
 * letter (a REJECTED status as well for some submissions); {@link Outcome#COUNTED_AS_DROPPED_TELEMETRY} is for a bad
 * record the cell would count in {@code droppedTelemetry} instead, which none of these kinds is. Deterministic for a
 * seed. Valid-looking content
 * never names a real node or job, so an accepted bad record could not disturb the valid traffic unseen.
 */
final class BadRecords {

    /** The tag topic of the {@code source} field of inbox records this generator writes. */
    static final String TAG_TOPIC = "chaos.fuzz.tag";
    static final String CELL = "cell-0";

    /** How a bad record is built. */
    enum Kind {
        RANDOM_BYTES, WRONG_MAGIC, UNKNOWN_SCHEMA_ID, HUGE_LENGTH_PREFIX, TRUNCATED, TRAILING_BYTES,
        NEAR_ONE_MEGABYTE, KEY_NOT_UTF8, NULL_VALUE, ABSURD_VALUES
    }

    /** Where a bad record must end. */
    enum Outcome { DEAD_LETTER, COUNTED_AS_DROPPED_TELEMETRY }

    /**
     * One bad record.
     *
     * @param timestamp producer timestamp (null: the producer's clock); ignored by LogAppendTime topics
     * @param tag       the {@code source} it carries (inbox records that reach a cell), else null
     */
    record Bad(QuantaTopic topic, Kind kind, String what, byte[] key, byte[] value, Long timestamp, Outcome outcome,
               SourceRef tag) {
    }

    private final TopicCatalogue topics;
    private final SplittableRandom random;
    private final int maxNearMegabyte;
    private final Map<QuantaTopic, Integer> nearMegabyte = new EnumMap<>(QuantaTopic.class);
    private final Map<QuantaTopic, Integer> schemaIds = new EnumMap<>(QuantaTopic.class);
    private final List<String> realNodes;
    private long serial;

    /**
     * @param maxNearMegabyte at most this many values near 1 MB per topic (they cost the broker and the disk)
     * @param realNodes       ids of the running nodes (events for unknown jobs may name them)
     */
    BadRecords(TopicCatalogue topics, long seed, int maxNearMegabyte, List<String> realNodes) {
        this.topics = topics;
        this.random = new SplittableRandom(seed);
        this.maxNearMegabyte = maxNearMegabyte;
        this.realNodes = List.copyOf(realNodes);
    }

    /** The next bad record for {@code topic} (one of the four inputs or the inbox). */
    Bad next(QuantaTopic topic) {
        long n = serial++;
        Kind kind = kind(topic);
        Long timestamp = timestamp(topic);
        String key = keyFor(topic, n);
        return switch (kind) {
            case RANDOM_BYTES -> bad(topic, kind, "random bytes", key, randomBytes(1 + random.nextInt(300)), timestamp);
            case WRONG_MAGIC -> {
                byte[] v = valid(topic, n);
                v[0] = (byte) (1 + random.nextInt(255));
                yield bad(topic, kind, "magic byte " + (v[0] & 0xFF), key, v, timestamp);
            }
            case UNKNOWN_SCHEMA_ID -> {
                byte[] v = valid(topic, n);
                ByteBuffer.wrap(v).putInt(1, 1_000_000 + random.nextInt(1_000_000));
                yield bad(topic, kind, "unknown schema id", key, v, timestamp);
            }
            case HUGE_LENGTH_PREFIX -> bad(topic, kind, "length prefix of ~4 GB", key, concat(header(topic),
                    new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}), timestamp);
            case TRUNCATED -> {
                byte[] v = valid(topic, n);
                yield bad(topic, kind, "truncated", key, Arrays.copyOf(v, 5 + random.nextInt(v.length - 5)),
                        timestamp);
            }
            case TRAILING_BYTES -> bad(topic, kind, "trailing bytes", key, concat(valid(topic, n),
                    randomBytes(1 + random.nextInt(16))), timestamp);
            case NEAR_ONE_MEGABYTE -> {
                nearMegabyte.merge(topic, 1, Integer::sum);
                byte[] v = randomBytes(990_000 + random.nextInt(10_000));
                System.arraycopy(header(topic), 0, v, 0, 5);
                yield bad(topic, kind, "value of " + v.length + " bytes", key, v, timestamp);
            }
            case KEY_NOT_UTF8 -> new Bad(topic, kind, "key not UTF-8", new byte[] {(byte) 0xC3, (byte) 0x28,
                    (byte) 0xFF, (byte) n}, valid(topic, n), timestamp, Outcome.DEAD_LETTER, null);
            case NULL_VALUE -> bad(topic, kind, "null value", key, null, timestamp);
            case ABSURD_VALUES -> absurd(topic, n, timestamp);
        };
    }

    private Kind kind(QuantaTopic topic) {
        Kind[] kinds = Kind.values();
        if (random.nextInt(10) < 4) {
            return Kind.ABSURD_VALUES;
        }
        Kind k = kinds[random.nextInt(kinds.length - 1)];
        if (k == Kind.NEAR_ONE_MEGABYTE && nearMegabyte.getOrDefault(topic, 0) >= maxNearMegabyte) {
            return Kind.RANDOM_BYTES;
        }
        return k;
    }

    /**
     * Now (null), or hours ahead or behind. The inbox keeps producer time, and the broker refuses a record stamped more
     * than {@code log.message.timestamp.after.max.ms} (1 h by default) ahead: there, 5 to 55 minutes ahead.
     */
    private Long timestamp(QuantaTopic topic) {
        int r = random.nextInt(10);
        long hours = Duration.ofHours(1 + random.nextInt(5)).toMillis();
        long ahead = topic == QuantaTopic.INBOX ? Duration.ofMinutes(5 + random.nextInt(51)).toMillis() : hours;
        return r < 6 ? null : System.currentTimeMillis() + (r < 8 ? ahead : -hours);
    }

    private static String keyFor(QuantaTopic topic, long n) {
        return topic == QuantaTopic.INBOX ? CELL : "fuzz-" + topic.id() + "-" + n;
    }

    private Bad bad(QuantaTopic topic, Kind kind, String what, String key, byte[] value, Long timestamp) {
        return new Bad(topic, kind, what, key.getBytes(StandardCharsets.UTF_8), value, timestamp,
                Outcome.DEAD_LETTER, null);
    }

    // ------------------------------------------------------------------ valid Avro with absurd content

    private Bad absurd(QuantaTopic topic, long n, Long timestamp) {
        return switch (topic) {
            case SUBMISSIONS -> absurdSubmission(n, timestamp);
            case HEARTBEATS -> absurdHeartbeat(n, timestamp);
            case TELEMETRY -> absurdTelemetry(n, timestamp);
            case EVENTS -> absurdEvent(n, timestamp);
            case INBOX -> absurdInbox(n, timestamp);
            default -> throw new IllegalArgumentException("not an input topic: " + topic);
        };
    }

    private Bad absurdSubmission(long n, Long timestamp) {
        String id = "fuzz-submissions-" + n;
        JobSubmitted.Builder job = JobSubmitted.newBuilder(submission(id));
        String key = id;
        String what;
        switch (random.nextInt(11)) {
            case 0 -> {
                int gpus = new int[] {0, -1, -4, Integer.MIN_VALUE}[random.nextInt(4)];
                job.setNumGpus(gpus);
                what = "numGpus " + gpus;
            }
            case 1 -> {
                double skew = new double[] {Double.NaN, Double.POSITIVE_INFINITY, -1}[random.nextInt(3)];
                job.setProfile(ModelProfile.newBuilder(job.getProfile()).setTensorSizeSkew(skew).build());
                what = "tensorSizeSkew " + skew;
            }
            case 2 -> {
                job.setTenant(" ");
                what = "blank tenant";
            }
            case 3 -> {
                job.setMaxRetries(-1);
                what = "maxRetries -1";
            }
            case 4 -> {
                job.setExpectedDurationSeconds(Long.MIN_VALUE);
                what = "expectedDurationSeconds Long.MIN_VALUE";
            }
            case 5 -> {
                double mb = new double[] {Double.NaN, Double.NEGATIVE_INFINITY, 0}[random.nextInt(3)];
                job.setProfile(ModelProfile.newBuilder(job.getProfile()).setMinibatchMillis(mb).build());
                what = "minibatchMillis " + mb;
            }
            case 6 -> {
                job.setProfile(ModelProfile.newBuilder(job.getProfile()).setModelName("").build());
                what = "blank model name";
            }
            case 7 -> {
                key = id + "-other";
                what = "key differs from the job id";
            }
            case 8 -> {
                job.setJobId("   ");
                what = "blank job id";
            }
            case 9 -> {
                job.setGpuType("");
                what = "blank gpuType";
            }
            default -> {
                JobRequest cancel = new JobRequest(JobCancelRequested.newBuilder().setJobId(id)
                        .setRequestedAt(Instant.now()).setReason("fuzz").build());
                return absurdOf(QuantaTopic.SUBMISSIONS, "cancel of an unknown job", key,
                        serialize(topics.submissions(), cancel), timestamp, Outcome.DEAD_LETTER, null);
            }
        }
        return absurdOf(QuantaTopic.SUBMISSIONS, what, key, serialize(topics.submissions(),
                new JobRequest(job.build())), timestamp, Outcome.DEAD_LETTER, null);
    }

    private Bad absurdHeartbeat(long n, Long timestamp) {
        String node = "fuzz-heartbeats-" + n;
        NodeHeartbeat.Builder beat = NodeHeartbeat.newBuilder(heartbeat(node));
        String key = node;
        String what;
        switch (random.nextInt(7)) {
            case 0 -> {
                String cell = new String[] {"", "cell 0!", "x".repeat(200), "unknown/cell"}[random.nextInt(4)];
                beat.setCellId(cell).setEpoch(Long.MAX_VALUE);
                what = "invalid cell id (epoch Long.MAX_VALUE)";
            }
            case 1 -> {
                long epoch = random.nextBoolean() ? Long.MIN_VALUE : -1;
                beat.setEpoch(epoch);
                what = "epoch " + epoch;
            }
            case 2 -> {
                int index = new int[] {-1, 64, Integer.MAX_VALUE}[random.nextInt(3)];
                beat.setGpus(List.of(gpu(index, 16_384)));
                what = "GPU index " + index;
            }
            case 3 -> {
                beat.setGpus(List.of(gpu(0, 16_384), gpu(0, 16_384)));
                what = "repeated GPU index";
            }
            case 4 -> {
                beat.setGpus(List.of(gpu(0, -16_384)));
                what = "negative GPU memory";
            }
            case 5 -> {
                key = node + "-other";
                what = "key differs from the node id";
            }
            default -> {
                beat.setNodeId("");
                what = "blank node id";
            }
        }
        return absurdOf(QuantaTopic.HEARTBEATS, what, key, serialize(topics.heartbeats(), beat.build()), timestamp,
                Outcome.DEAD_LETTER, null);
    }

    private Bad absurdTelemetry(long n, Long timestamp) {
        String job = "fuzz-telemetry-" + n;
        double rate = new double[] {Double.NaN, Double.NEGATIVE_INFINITY, -1, Double.MAX_VALUE}[random.nextInt(4)];
        JobTelemetry.Builder t = JobTelemetry.newBuilder().setJobId(job).setAttempt(-7).setNodeId("fuzz-node")
                .setMinibatchesDone(Long.MAX_VALUE).setMinibatchesPerSecond(rate).setWindowMillis(-1)
                .setReportedAt(Instant.ofEpochMilli(Long.MAX_VALUE / 4));
        String what;
        Outcome outcome = Outcome.DEAD_LETTER; // a job the cell never had is bad input, whatever its cell
        switch (random.nextInt(10)) {
            case 0, 1, 2, 3, 4 -> what = "unknown job without a cell, rate " + rate;
            case 5, 6 -> {
                t.setNodeId(" ");
                what = "blank node id";
            }
            case 7, 8 -> {
                t.setCellId("no such cell!");
                what = "invalid cell id";
            }
            default -> {
                t.setCellId(CELL);
                what = "unknown job in a real cell, rate " + rate;
            }
        }
        return absurdOf(QuantaTopic.TELEMETRY, what, job, serialize(topics.telemetry(), t.build()), timestamp,
                outcome, null);
    }

    private Bad absurdEvent(long n, Long timestamp) {
        String job = "fuzz-events-" + n;
        JobEventType type = JobEventType.values()[random.nextInt(JobEventType.values().length)];
        JobEvent.Builder e = JobEvent.newBuilder().setJobId(job).setAttempt(random.nextBoolean() ? -5 : 1)
                .setNodeId("fuzz-node-" + n).setEpoch(Long.MAX_VALUE).setType(type).setAt(Instant.now());
        String what;
        switch (random.nextInt(5)) {
            case 0 -> what = type + " of an unknown job without a cell";
            case 1 -> {
                e.setNodeId("");
                what = "blank node id";
            }
            case 2 -> {
                e.setCellId("cell-0/../x");
                what = "invalid cell id";
            }
            case 3 -> {
                e.setCellId(CELL);
                what = type + " from a node unknown in the cell (epoch Long.MAX_VALUE)";
            }
            default -> {
                e.setCellId(CELL).setNodeId(realNodes.get(random.nextInt(realNodes.size())));
                what = type + " of an unknown job from a real node (epoch Long.MAX_VALUE)";
            }
        }
        return absurdOf(QuantaTopic.EVENTS, what, job, serialize(topics.events(), e.build()), timestamp,
                Outcome.DEAD_LETTER, null);
    }

    /**
     * Inbox records that no router would write. Those refused before they reach a cell may carry any timestamp;
     * those a cell must read (an event from an unknown node, a cancel of an unknown job) carry the producer's clock:
     * the inbox is the cells' write-ahead log and keeps producer time, so one stamped hours ahead would move its
     * cell's clock (a forged log record: a known limit, docs/reliability.md).
     */
    private Bad absurdInbox(long n, Long timestamp) {
        SourceRef tag = new SourceRef(TAG_TOPIC, 0, n);
        CellInput.Builder input = CellInput.newBuilder().setCellId(CELL).setSource(tag)
                .setInput(JobCancelRequested.newBuilder().setJobId("fuzz-inbox-" + n).setRequestedAt(Instant.now())
                        .build());
        String key = CELL;
        String what;
        Long ts = timestamp;
        switch (random.nextInt(5)) {
            case 0 -> {
                input.setCellId(new String[] {"", "bad cell!", "x".repeat(300)}[random.nextInt(3)]);
                key = input.getCellId();
                what = "invalid cell id";
            }
            case 1 -> {
                key = "cell-9";
                what = "key differs from the cell id";
            }
            case 2 -> {
                input.setInput(JobSubmitted.newBuilder(submission("fuzz-inbox-" + n)).setNumGpus(-4).build());
                what = "submission with -4 GPUs";
            }
            case 3 -> {
                input.setInput(JobEvent.newBuilder().setJobId("fuzz-inbox-" + n).setAttempt(1)
                        .setNodeId("fuzz-node-" + n).setEpoch(Long.MAX_VALUE).setType(JobEventType.COMPLETED)
                        .setAt(Instant.now()).build());
                what = "event from a node unknown in the cell";
                ts = pastOrNow(timestamp);
            }
            default -> {
                what = "cancel of an unknown job";
                ts = pastOrNow(timestamp);
            }
        }
        return absurdOf(QuantaTopic.INBOX, what, key, serialize(topics.inbox(), input.build()), ts,
                Outcome.DEAD_LETTER, tag);
    }

    private static Long pastOrNow(Long timestamp) {
        return timestamp == null || timestamp > System.currentTimeMillis() ? null : timestamp;
    }

    private static Bad absurdOf(QuantaTopic topic, String what, String key, byte[] value, Long timestamp,
                                Outcome outcome, SourceRef tag) {
        return new Bad(topic, Kind.ABSURD_VALUES, what, key.getBytes(StandardCharsets.UTF_8), value, timestamp,
                outcome, tag);
    }

    // ------------------------------------------------------------------ valid bases

    /** A valid record of the topic that names no real job or node (base of the byte-level corruptions). */
    private byte[] valid(QuantaTopic topic, long n) {
        return switch (topic) {
            case SUBMISSIONS -> serialize(topics.submissions(), new JobRequest(submission("fuzz-submissions-" + n)));
            case HEARTBEATS -> serialize(topics.heartbeats(), NodeHeartbeat.newBuilder(heartbeat("fuzz-heartbeats-"
                    + n)).setGpus(List.of()).build());
            case TELEMETRY -> serialize(topics.telemetry(), JobTelemetry.newBuilder().setJobId("fuzz-telemetry-" + n)
                    .setAttempt(1).setNodeId("fuzz-node").setMinibatchesDone(1).setMinibatchesPerSecond(1)
                    .setReportedAt(Instant.now()).build());
            case EVENTS -> serialize(topics.events(), JobEvent.newBuilder().setJobId("fuzz-events-" + n)
                    .setAttempt(1).setNodeId("fuzz-node").setType(JobEventType.STARTED).setAt(Instant.now()).build());
            case INBOX -> serialize(topics.inbox(), CellInput.newBuilder().setCellId(CELL)
                    .setSource(new SourceRef(TAG_TOPIC, 0, n)).setInput(JobCancelRequested.newBuilder()
                            .setJobId("fuzz-inbox-" + n).setRequestedAt(Instant.now()).build()).build());
            default -> throw new IllegalArgumentException("not an input topic: " + topic);
        };
    }

    private byte[] header(QuantaTopic topic) {
        int id = schemaIds.computeIfAbsent(topic, t -> ByteBuffer.wrap(valid(t, 0)).getInt(1));
        return ByteBuffer.allocate(5).put((byte) 0).putInt(id).array();
    }

    private static JobSubmitted submission(String id) {
        return JobSubmitted.newBuilder().setJobId(id).setTenant("fuzz").setNumGpus(1)
                .setProfile(ModelProfile.newBuilder().setModelName("resnet50").build())
                .setExpectedDurationSeconds(1L).setSubmittedAt(Instant.now()).build();
    }

    private static NodeHeartbeat heartbeat(String node) {
        return NodeHeartbeat.newBuilder().setNodeId(node).setCellId(CELL).setRack("fuzz").setEpoch(1)
                .setGpus(List.of(gpu(0, 16_384))).setRunning(List.of()).setSentAt(Instant.now()).build();
    }

    private static GpuInfo gpu(int index, int memory) {
        return GpuInfo.newBuilder().setIndex(index).setUuid("fuzz-gpu-" + index).setModel("V100")
                .setMemoryTotalMiB(memory).setMemoryUsedMiB(0).setUtilizationPercent(0).setHealthy(true).build();
    }

    private static <V> byte[] serialize(TopicSpec<String, V> spec, V value) {
        return spec.valueSerde().serializer().serialize(spec.name(), value);
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        return ByteBuffer.allocate(a.length + b.length).put(a).put(b).array();
    }
}
