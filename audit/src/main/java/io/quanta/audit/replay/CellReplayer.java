package io.quanta.audit.replay;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.InboxRecord;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.SchedulerTopology;
import io.quanta.streams.host.ProcessorHost;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Runs a fresh instance of the production cell-scheduler processor ({@link SchedulerTopology#cellScheduler}, same
 * code, in-memory stores, hosted by a {@link ProcessorHost}) over a cell's recorded inbox (already decoded: the inputs are handed to the processor's
 * deserializer as objects, see {@link HandoffSerdes}), from the beginning of the retained log, with the
 * configuration the CONFIG records say was in force at each point. Each record is fed with its original offset and
 * timestamp, so the replayed decisions carry the same sequence numbers, stream times and inbox offset ranges as the
 * recorded ones when the scheduler is deterministic. A configuration change restarts the processor on the same
 * stores, as the live restart did.
 */
public final class CellReplayer {

    private final PolicyRegistry policies;

    public CellReplayer(PolicyRegistry policies) {
        this.policies = policies;
    }

    /** A replayer with the built-in policies. */
    public static CellReplayer withBuiltInPolicies() {
        return new CellReplayer(PolicyRegistry.builtIn());
    }

    /**
     * Replays {@code log} from its first record up to the end of {@code window}.
     *
     * @throws ReplayException when the log cannot be replayed (no or inconsistent CONFIG records, unknown policy)
     */
    public ReplayRun run(CellLog log, ReplayWindow window, StepListener listener) {
        return run(log, ConfigTimeline.of(log.decisions()), window, listener);
    }

    /**
     * Replays {@code log} with the configurations of {@code timeline} instead of the recorded ones (tests; what-if
     * replays of the same inputs under another configuration).
     */
    public ReplayRun run(CellLog log, ConfigTimeline timeline, ReplayWindow window, StepListener listener) {
        String cellId = log.cellId();
        if (timeline.isEmpty()) {
            throw new ReplayException("cell " + cellId + " has no recorded decisions, so no CONFIG record says which "
                    + "configuration was in force: nothing to replay against");
        }
        HandoffSerdes serdes = new HandoffSerdes();
        TopicCatalogue topics = TopicCatalogue.from(QuantaConfig.of(Map.of()), serdes);
        List<ReplayedDecision> decisions = new ArrayList<>();
        long applied = 0;
        long skipped = 0;
        long last = -1;
        int nextChange = 0;
        List<ConfigTimeline.Change> changes = timeline.changes();
        try (ProcessorHost<String, byte[]> harness = new ProcessorHost<>("quanta-audit-replay",
                SchedulerTopology.cellStores())) {
            for (InboxRecord r : log.inbox()) {
                if (window.pastEnd(r.offset(), r.timestampMs())) {
                    break;
                }
                if (!r.appliesTo(cellId)) {
                    skipped++;
                    continue;
                }
                int change = nextChange;
                while (change < changes.size() && changes.get(change).fromOffset() <= r.offset()) {
                    change++;
                }
                if (change > nextChange) {
                    restart(harness, supplier(topics, changes.get(change - 1).config()));
                    nextChange = change;
                }
                List<ProcessorHost.Output> outputs = harness.process(log.inboxTopic(), log.inboxPartition(),
                        r.offset(), new Record<>(r.key(), serdes.handOff(r.input()), r.timestampMs()));
                step(r, outputs, decisions, listener);
                applied++;
                last = r.offset();
            }
        }
        return new ReplayRun(timeline, decisions, applied, skipped, log.firstInboxOffset(), last);
    }

    private static void step(InboxRecord r, List<ProcessorHost.Output> outputs, List<ReplayedDecision> all,
                             StepListener listener) {
        List<SchedulingDecision> decisions = new ArrayList<>();
        List<JobStatus> statuses = new ArrayList<>();
        for (ProcessorHost.Output out : outputs) {
            switch (out.child()) {
                case SchedulerTopology.DECISIONS_SINK -> decisions.add((SchedulingDecision) out.record().value());
                case SchedulerTopology.CELL_STATUS_SINK -> statuses.add((JobStatus) out.record().value());
                default -> {
                    // commands and dead letters follow from the decisions; not compared
                }
            }
        }
        decisions.forEach(d -> all.add(new ReplayedDecision(r, d)));
        listener.step(r, decisions, statuses);
    }

    private static void restart(ProcessorHost<String, byte[]> harness,
                                ProcessorSupplier<String, byte[], String, Object> supplier) {
        try {
            harness.restart(supplier);
        } catch (UnsupportedOperationException e) {
            throw new ReplayException("the processor cannot be replayed: " + e.getMessage(), e);
        }
    }

    private ProcessorSupplier<String, byte[], String, Object> supplier(TopicCatalogue topics, RecordedConfig config) {
        try {
            policies.create(config.settings().policy());
        } catch (RuntimeException e) {
            throw new ReplayException("cannot create the recorded policy " + config.describe() + ": "
                    + e.getMessage(), e);
        }
        return SchedulerTopology.cellScheduler(topics, config.settings(), policies, config.fingerprint());
    }
}
