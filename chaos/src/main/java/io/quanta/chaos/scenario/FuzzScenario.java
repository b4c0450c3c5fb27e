package io.quanta.chaos.scenario;

import io.quanta.chaos.infra.ChaosCluster;
import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.infra.Faults;
import io.quanta.chaos.observe.Seen;
import io.quanta.chaos.observe.Stats;
import io.quanta.chaos.scenario.BadRecords.Bad;
import io.quanta.chaos.scenario.BadRecords.Outcome;
import io.quanta.embedded.Await;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.QuantaTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fuzz: bad records ({@link BadRecords}) on the four input topics and the cell inbox, interleaved with valid
 * submissions. Before them, the same valid submissions alone measure the submission-to-START latency without fuzz.
 * Then: no stream thread was replaced, every bad record has a dead letter with a reason (found by its topic,
 * partition and offset, or by the {@code source} it carried into a cell), every valid job got its START, and their
 * latency stayed within {@code maxSlowdown} times the run without fuzz (medians).
 */
public final class FuzzScenario implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(FuzzScenario.class);
    private static final Duration RUNNING = Duration.ofMinutes(3);
    private static final List<QuantaTopic> TARGETS = List.of(QuantaTopic.SUBMISSIONS, QuantaTopic.HEARTBEATS,
            QuantaTopic.TELEMETRY, QuantaTopic.EVENTS, QuantaTopic.INBOX);
    private static final Pattern NOT_COPIED = Pattern.compile("\\s*\\[value of \\d+ bytes not copied[^\\]]*\\]");
    private static final Pattern MALFORMED = Pattern.compile("^Malformed record on topic '[^']*': ");
    private static final Pattern QUOTED = Pattern.compile("'[^']*'");
    private static final Pattern IDS = Pattern.compile("fuzz-[a-z]+-\\d+");
    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");
    private static final Pattern NUMBERS = Pattern.compile("(?<![\\w-])-?\\d[\\d.]*(E-?\\d+)?");

    /**
     * @param badPerTopic      bad records on each of the four input topics and the inbox
     * @param validJobs        valid jobs per phase (without and with fuzz)
     * @param validInterval    between two valid submissions (the fuzz is spread over the same span)
     * @param maxNearMegabyte  values near 1 MB per topic at most
     * @param nodes            simulated nodes
     * @param gpusPerNode      their GPUs
     * @param speed            time compression
     * @param jobSeconds       simulated length of the valid jobs
     * @param maxSlowdown      allowed ratio of the median latency with fuzz to the one without
     * @param timeout          how long the scheduler may take to work through everything after the last send
     * @param seed             of the bad records
     */
    public record Config(int badPerTopic, int validJobs, Duration validInterval, int maxNearMegabyte, int nodes,
                         int gpusPerNode, double speed, long jobSeconds, double maxSlowdown, Duration timeout,
                         long seed) {

        /** The CI version: 1,000 bad records in all (200 per topic) over 20 s, 40 valid jobs per phase. */
        public static final Config SHORT = new Config(200, 40, Duration.ofMillis(500), 1, 2, 4, 60, 30, 2.0,
                Duration.ofMinutes(2), 7);
        /** The full run: 10,000 bad records per input topic and on the inbox (50,000) over 200 s. */
        public static final Config FULL = new Config(10_000, 200, Duration.ofMillis(1_000), 20, 2, 4, 60, 30, 2.0,
                Duration.ofMinutes(10), 2026);
    }

    /** A bad record as sent: where it landed. */
    private record Sent(Bad bad, String coordinates) {
    }

    private final Config config;

    public FuzzScenario(Config config) {
        this.config = config;
    }

    @Override
    public String name() {
        return "fuzz";
    }

    @Override
    public ScenarioResult run(ChaosStack stack) {
        Report report = new Report(name());
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(SchedulerConfigSection.POLICY, "fifo");
        return ScenarioRun.onCluster(stack, name(), settings, report, this::run, () -> { });
    }

    private void run(ChaosCluster cluster, Report report) {
        List<String> nodeIds = ScenarioRun.schedulerAndNodes(cluster, "fuzz-n", config.nodes(), config.gpusPerNode(),
                config.speed());

        Map<String, Long> baseline = submitValid(cluster, "base");
        awaitStarts(cluster, baseline.keySet());
        long droppedBefore = droppedTelemetry(cluster);

        BadRecords generator = new BadRecords(cluster.topics(), config.seed(), config.maxNearMegabyte(), nodeIds);
        List<Sent> sent = new CopyOnWriteArrayList<>();
        List<Throwable> sendErrors = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> fuzz = CompletableFuture.runAsync(() -> sendBad(cluster, generator, sent,
                sendErrors));
        Map<String, Long> withFuzz = submitValid(cluster, "fuzz");
        fuzz.join();
        LOG.info("fuzz: {} bad records sent ({} failed sends)", sent.size(), sendErrors.size());
        sendErrors.stream().limit(5).forEach(e -> report.violation("a bad record could not be sent: " + e));

        try {
            awaitStarts(cluster, withFuzz.keySet());
        } catch (Await.ConditionTimeoutException e) {
            report.violation(e.getMessage());
        }
        DeadLetterIndex letters = new DeadLetterIndex(cluster);
        List<Sent> expectDeadLetter = sent.stream().filter(s -> s.bad().outcome() == Outcome.DEAD_LETTER).toList();
        try {
            Await.until("a dead letter for each of " + expectDeadLetter.size() + " bad records", config.timeout(),
                    () -> letters.refresh() && expectDeadLetter.stream().allMatch(letters::has));
        } catch (Await.ConditionTimeoutException e) {
            LOG.warn("fuzz: {}", e.getMessage());
        }
        long counted = sent.size() - expectDeadLetter.size();
        long[] droppedAfter = {droppedBefore};
        try {
            Await.until("droppedTelemetry up by " + counted, config.timeout(), () -> {
                droppedAfter[0] = droppedTelemetry(cluster);
                return droppedAfter[0] - droppedBefore >= counted;
            });
        } catch (Await.ConditionTimeoutException e) {
            LOG.warn("fuzz: {}", e.getMessage());
        }
        check(cluster, report, sent, letters, baseline, withFuzz, droppedAfter[0] - droppedBefore);
    }

    /** Submits the phase's valid jobs at the configured interval; job id to the wall time it was sent. */
    private Map<String, Long> submitValid(ChaosCluster cluster, String phase) {
        Map<String, Long> sentAt = new LinkedHashMap<>();
        long start = System.nanoTime();
        for (int i = 0; i < config.validJobs(); i++) {
            long due = start + i * config.validInterval().toNanos();
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Faults.hold(Duration.ofNanos(wait));
            }
            String id = String.format("valid-%s-%03d", phase, i);
            sentAt.put(id, System.currentTimeMillis());
            cluster.submit(Jobs.job(id, "vc0", 1, config.jobSeconds()));
        }
        return sentAt;
    }

    private void awaitStarts(ChaosCluster cluster, Set<String> jobs) {
        ChaosCluster.awaitWhileAlive(cluster.scheduler(), "a START of each of " + jobs.size() + " valid jobs",
                config.timeout(), () -> starts(cluster).keySet().containsAll(jobs));
    }

    /** Job id to the receive time of its first START. */
    private static Map<String, Long> starts(ChaosCluster cluster) {
        Map<String, Long> out = new HashMap<>();
        for (Seen<NodeCommand> c : cluster.tail().commands()) {
            if (c.value().getType() == NodeCommandType.START) {
                out.putIfAbsent(c.value().getJobId(), c.receivedAt());
            }
        }
        return out;
    }

    /** Sends the bad records round-robin over the targets, spread evenly over the valid phase. */
    private void sendBad(ChaosCluster cluster, BadRecords generator, List<Sent> sent, List<Throwable> errors) {
        KafkaProducer<byte[], byte[]> producer = cluster.rawProducer();
        int total = config.badPerTopic() * TARGETS.size();
        long span = config.validInterval().toNanos() * config.validJobs();
        long start = System.nanoTime();
        for (int i = 0; i < total; i++) {
            if (i % 10 == 0) {
                long wait = start + span * i / total - System.nanoTime();
                if (wait > 0) {
                    Faults.hold(Duration.ofNanos(wait));
                }
            }
            QuantaTopic topic = TARGETS.get(i % TARGETS.size());
            Bad bad = generator.next(topic);
            String name = cluster.topics().spec(topic).name();
            producer.send(new ProducerRecord<>(name, null, bad.timestamp(), bad.key(), bad.value()), (m, e) -> {
                if (e != null) {
                    errors.add(e);
                } else {
                    sent.add(new Sent(bad, m.topic() + "/" + m.partition() + "/" + m.offset()));
                }
            });
        }
        producer.flush();
    }

    private static long droppedTelemetry(ChaosCluster cluster) {
        return cluster.status().summary(ChaosCluster.CELL).map(s -> s.path("droppedTelemetry").asLong())
                .orElse(-1L);
    }

    private void check(ChaosCluster cluster, Report report, List<Sent> sent, DeadLetterIndex letters,
                       Map<String, Long> baseline, Map<String, Long> withFuzz, long droppedDelta) {
        letters.refresh();
        report.info("bad records sent", sent.size());
        report.info("bad records by topic", new TreeMap<>(sent.stream().collect(Collectors.groupingBy(
                s -> s.bad().topic().id(), Collectors.counting()))));
        report.info("bad records by kind", new TreeMap<>(sent.stream().collect(Collectors.groupingBy(
                s -> s.bad().kind().name().toLowerCase(Locale.ROOT), Collectors.counting()))));
        List<String> missing = sent.stream().filter(s -> s.bad().outcome() == Outcome.DEAD_LETTER)
                .filter(s -> !letters.has(s))
                .map(s -> s.bad().topic().id() + " " + s.bad().kind() + " (" + s.bad().what() + ") at "
                        + s.coordinates()).toList();
        report.expect("bad records without a dead letter", missing.size(), 0, missing);
        long counted = sent.stream().filter(s -> s.bad().outcome() == Outcome.COUNTED_AS_DROPPED_TELEMETRY).count();
        report.expectThat("telemetry for unknown jobs in a real cell: counted / sent", droppedDelta + " / "
                + counted, droppedDelta >= counted, ">= sent (droppedTelemetry)");
        long blank = letters.all().stream().filter(d -> d.value().getReason().isBlank()).count();
        report.expect("dead letters without a reason", blank, 0);
        report.info("dead letters", letters.all().size());
        Set<String> fuzzJobs = new HashSet<>();
        cluster.tail().statuses().stream().filter(s -> s.value().getState() == JobState.REJECTED
                && s.value().getJobId().startsWith("fuzz-")).forEach(s -> fuzzJobs.add(s.value().getJobId()));
        report.info("REJECTED statuses of bad submissions", fuzzJobs.size());
        reasons(letters).forEach((reason, n) -> report.info("  dead letters: " + reason, n));
        report.expect("stream-thread replacements", cluster.threadReplacements(), 0);
        boolean alive = cluster.scheduler().isAlive()
                && cluster.status().health().filter("RUNNING"::equals).isPresent();
        report.expectThat("scheduler RUNNING at the end", alive ? "yes" : "no", alive, "yes");

        Map<String, Long> starts = starts(cluster);
        long scheduled = withFuzz.keySet().stream().filter(starts::containsKey).count()
                + baseline.keySet().stream().filter(starts::containsKey).count();
        report.expect("valid jobs scheduled (START seen)", scheduled, baseline.size() + withFuzz.size());
        List<Long> base = latencies(baseline, starts);
        List<Long> fuzz = latencies(withFuzz, starts);
        report.info("submission -> START without fuzz p50 / p95 / max", summary(base));
        report.info("submission -> START with fuzz p50 / p95 / max", summary(fuzz));
        double ratio = Stats.percentile(fuzz, 50) / Stats.percentile(base, 50);
        report.expectThat("median latency with fuzz / without", String.format(Locale.ROOT, "%.2f", ratio),
                ratio <= config.maxSlowdown(), "<= " + config.maxSlowdown());
    }

    private static List<Long> latencies(Map<String, Long> sentAt, Map<String, Long> starts) {
        List<Long> out = new ArrayList<>();
        sentAt.forEach((job, at) -> {
            Long start = starts.get(job);
            if (start != null) {
                out.add(start - at);
            }
        });
        return out;
    }

    private static String summary(List<Long> values) {
        return Stats.millis(Stats.percentile(values, 50)) + " / " + Stats.millis(Stats.percentile(values, 95))
                + " / " + Stats.millis(Stats.max(values));
    }

    /** Dead letters by reason, numbers and quoted values replaced, most frequent first (at most 25 lines). */
    private static Map<String, Long> reasons(DeadLetterIndex letters) {
        Map<String, Long> counts = letters.all().stream().collect(Collectors.groupingBy(d -> reasonClass(
                d.value().getReason()), TreeMap::new, Collectors.counting()));
        Map<String, Long> top = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(25)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    /** A dead letter's reason without what varies from record to record (ids, numbers, quoted values). */
    static String reasonClass(String reason) {
        String r = NOT_COPIED.matcher(reason).replaceAll("");
        r = MALFORMED.matcher(r).replaceAll("malformed: ");
        r = QUOTED.matcher(r).replaceAll("'…'");
        r = IDS.matcher(r).replaceAll("fuzz-…");
        r = HEX.matcher(r).replaceAll("0x…");
        r = NUMBERS.matcher(r).replaceAll("N");
        return r.length() > 90 ? r.substring(0, 90) + "…" : r;
    }

    /** The dead letters read so far, by their source coordinates; refreshed incrementally. */
    private static final class DeadLetterIndex {
        private final ChaosCluster cluster;
        private final Set<String> sources = ConcurrentHashMap.newKeySet();
        private List<Seen<DeadLetter>> all = List.of();

        DeadLetterIndex(ChaosCluster cluster) {
            this.cluster = cluster;
        }

        /** Reads the new dead letters; always true (for use inside a wait condition). */
        boolean refresh() {
            List<Seen<DeadLetter>> now = cluster.tail().deadLetters();
            for (int i = all.size(); i < now.size(); i++) {
                DeadLetter d = now.get(i).value();
                sources.add(d.getSourceTopic() + "/" + d.getPartition() + "/" + d.getOffset());
            }
            all = now;
            return true;
        }

        boolean has(Sent s) {
            return sources.contains(s.coordinates()) || (s.bad().tag() != null && sources.contains(
                    s.bad().tag().getTopic() + "/" + s.bad().tag().getPartition() + "/" + s.bad().tag().getOffset()));
        }

        List<Seen<DeadLetter>> all() {
            return all;
        }
    }
}
