package io.quanta.streams.status;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.SchedulingDecision;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The recent history the dashboard shows and the stores do not keep: per job its status changes, the decisions that
 * name it and its measured throughput, and the latest dead letters. Fed with records read from the scheduler's own
 * topics ({@link ActivityTail}); bounded in every dimension (jobs followed, entries per job, dead letters, text
 * lengths), the least recently updated or viewed job being forgotten first. Thread-safe. Never part of scheduling.
 */
public final class ActivityLog implements RecentActivity {

    /** Jobs whose history is kept. */
    public static final int MAX_JOBS = 2000;
    /** Status changes and decisions kept per job (the newest). */
    public static final int MAX_ENTRIES = 50;
    /** Throughput samples kept per job (the newest). */
    public static final int MAX_SAMPLES = 120;
    /** Dead letters kept (the newest). */
    public static final int MAX_DEAD_LETTERS = 100;
    /** Longest text kept from a record (reasons, keys, detail values); longer texts are cut with a mark. */
    public static final int MAX_TEXT = 2000;
    private static final int MAX_KEY = 200;
    private static final int MAX_DETAILS = 24;

    private final Map<String, History> jobs = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, History> eldest) {
            if (size() > MAX_JOBS) {
                forgotten++;
                return true;
            }
            return false;
        }
    };
    private final Deque<DeadLetterEntry> deadLetters = new ArrayDeque<>();
    private long forgotten;

    /** A decision; kept with its job (decisions without a job, such as CONFIG, are not kept). */
    public synchronized void decision(SchedulingDecision d) {
        if (d.getJobId() == null) {
            return;
        }
        History h = history(d.getJobId());
        h.add(h.decisions, new DecisionEntry(text(d.getStreamTime()),
                d.getCellId(), d.getSeq(), d.getType().name(), d.getAttempt(), gpus(d.getGpus()),
                gpus(d.getFromGpus()), d.getSharingWith().stream().map(ActivityLog::cut).toList(), cut(d.getReason()),
                details(d.getDetails())), MAX_ENTRIES);
    }

    /** A job status; kept when it differs from the job's previous one in more than its time and service. */
    public synchronized void status(JobStatus s) {
        History h = history(s.getJobId());
        StatusEntry entry = new StatusEntry(text(s.getUpdatedAt()), s.getState().name(), s.getAttempt(),
                s.getQueueLevel(), finite(s.getAttainedGpuSeconds()), gpus(s.getPlacement()), cut(s.getReason()));
        StatusEntry last = h.statuses.peekLast();
        if (last != null && last.sameAs(entry)) {
            h.statuses.pollLast();
        }
        h.add(h.statuses, entry, MAX_ENTRIES);
    }

    /** A telemetry record: one throughput sample of its job (rates that are not finite numbers >= 0 are skipped). */
    public synchronized void telemetry(JobTelemetry t) {
        double rate = t.getMinibatchesPerSecond();
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            return;
        }
        History h = history(t.getJobId());
        h.add(h.throughput, new ThroughputSample(text(t.getReportedAt()), t.getAttempt(), cut(t.getNodeId()), rate,
                t.getMinibatchesDone()), MAX_SAMPLES);
    }

    /** A dead letter; its key is kept as bounded text, its value only as a length. */
    public synchronized void deadLetter(DeadLetter d) {
        deadLetters.addLast(new DeadLetterEntry(text(d.getAt()), cut(d.getSourceTopic()), d.getPartition(),
                d.getOffset(), key(d.getKey()), d.getKey() == null ? 0 : d.getKey().remaining(),
                d.getValue() == null ? 0 : d.getValue().remaining(), cut(d.getReason()), cut(d.getErrorClass())));
        while (deadLetters.size() > MAX_DEAD_LETTERS) {
            deadLetters.pollFirst();
        }
    }

    @Override
    public synchronized Optional<Timeline> timeline(String jobId) {
        History h = jobs.get(jobId);
        if (h == null) {
            return Optional.empty();
        }
        return Optional.of(new Timeline(jobId, List.copyOf(h.statuses), List.copyOf(h.decisions),
                List.copyOf(h.throughput), h.dropped > 0));
    }

    @Override
    public synchronized List<DeadLetterEntry> deadLetters(int limit) {
        List<DeadLetterEntry> out = new ArrayList<>(Math.min(limit, deadLetters.size()));
        var newestFirst = deadLetters.descendingIterator();
        while (newestFirst.hasNext() && out.size() < limit) {
            out.add(newestFirst.next());
        }
        return out;
    }

    /** Jobs followed now. */
    public synchronized int jobs() {
        return jobs.size();
    }

    /** Jobs forgotten to stay within {@link #MAX_JOBS}. */
    public synchronized long forgotten() {
        return forgotten;
    }

    /** Forgets everything. */
    public synchronized void clear() {
        jobs.clear();
        deadLetters.clear();
    }

    private History history(String jobId) {
        return jobs.computeIfAbsent(jobId, id -> new History());
    }

    private static List<String> gpus(List<GpuRef> refs) {
        return refs.stream().map(StatusViews::gpu).map(ActivityLog::cut).toList();
    }

    private static Map<String, String> details(Map<String, String> details) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(details).entrySet()) {
            if (out.size() == MAX_DETAILS) {
                break;
            }
            out.put(cut(e.getKey()), cut(e.getValue()));
        }
        return out;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String text(Instant at) {
        return at == null ? null : at.toString();
    }

    static String cut(String text) {
        if (text == null) {
            return null;
        }
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + " [cut]";
    }

    /** The key as text: UTF-8 when it is, else a mark with its length; at most {@value #MAX_KEY} characters. */
    static String key(ByteBuffer key) {
        if (key == null) {
            return null;
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(key.duplicate()).toString();
            return text.length() <= MAX_KEY ? text : text.substring(0, MAX_KEY) + " [cut]";
        } catch (CharacterCodingException e) {
            return "(" + key.remaining() + " bytes, not UTF-8)";
        }
    }

    /** One job's kept history. */
    private static final class History {
        final Deque<StatusEntry> statuses = new ArrayDeque<>();
        final Deque<DecisionEntry> decisions = new ArrayDeque<>();
        final Deque<ThroughputSample> throughput = new ArrayDeque<>();
        long dropped;

        <T> void add(Deque<T> to, T entry, int max) {
            to.addLast(entry);
            while (to.size() > max) {
                to.pollFirst();
                dropped++;
            }
        }
    }

    /** A status change: the job's state, attempt, queue, service and placement as published, and why. */
    public record StatusEntry(String at, String state, int attempt, int queueLevel, Double attainedGpuSeconds,
                              List<String> placement, String reason) {

        boolean sameAs(StatusEntry o) {
            return state.equals(o.state) && attempt == o.attempt && queueLevel == o.queueLevel
                    && placement.equals(o.placement) && Objects.equals(reason, o.reason);
        }
    }

    /** A decision that names the job (at its stream time). */
    public record DecisionEntry(String at, String cellId, long seq, String type, int attempt, List<String> gpus,
                                List<String> fromGpus, List<String> sharingWith, String reason,
                                Map<String, String> details) {
    }

    /** Measured training speed of one attempt on one node over a telemetry window. */
    public record ThroughputSample(String at, int attempt, String nodeId, double minibatchesPerSecond,
                                   long minibatchesDone) {
    }

    /** A dead letter as the dashboard shows it: where the record came from, its key as text, why it was refused. */
    public record DeadLetterEntry(String at, String sourceTopic, int partition, long offset, String key, int keyBytes,
                                  int valueBytes, String reason, String errorClass) {
    }

    /**
     * {@code GET /jobs/{id}/timeline}: what this instance saw of a job, oldest first.
     *
     * @param truncated whether older entries were dropped to stay bounded
     */
    public record Timeline(String jobId, List<StatusEntry> statuses, List<DecisionEntry> decisions,
                           List<ThroughputSample> throughput, boolean truncated) {
    }
}
