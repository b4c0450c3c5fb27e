package io.quanta.core.policy.quanta;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.core.placement.PlacementMode;
import io.quanta.core.placement.PlacementRule;
import io.quanta.core.stage.GittinsPreemptionGate;
import io.quanta.core.stage.MultiLevelQueue;
import io.quanta.core.stage.QueueRules;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Where quanta departs from the settings it shares with the other policies, in one place: the {@code quanta.*} keys
 * replace {@code placement.skew-threshold}, {@code placement.relaxation-timeout-s}, {@code tiresias.starvation-knob}
 * and {@code introspection.min-gain} for quanta only, so that the baselines keep their papers' defaults.
 *
 * @param placement the placement rule: the configured mode, quanta's skew threshold, relaxation timeout and
 *     consolidation patience
 * @param knob the starvation knob of quanta's queues
 * @param packMinGain the normalised gain over running one job at a time that a pack must show to be kept
 * @param packMinSpeed the share of its speed alone below which a packed job's model pair is not packed again
 * @param unpack true to move a packed job to free GPUs once no job waits
 * @param packFirst true to try packing a waiting job before planning a preemption for it
 * @param gittins true to order jobs inside a queue by the learned 2D-Gittins index, false for FIFO
 * @param preemptByIndex true to preempt only a running job with a lower 2D-Gittins index than the waiting job's
 * @param fifoLastQueue true to order the last queue by arrival instead of by index
 * @param indexByTenant true to compute a job's index from its tenant's recent completed jobs when they say enough
 * @param indexGatePrefix true when the waiting job must also beat the index of every job before the victim in
 *     victim order
 * @param thresholdQuantiles the quantiles of completed jobs' service that become the queue thresholds (empty = the
 *     configured thresholds)
 * @param queueRules how quanta's queues move jobs up and down (knob basis, re-levelling, the knob's least wait)
 * @param promotedPreemptsAhead true when a job promoted by the knob preempts only jobs that attained more service
 * @param promotedMargin the factor by which such a victim's attained service must exceed the promoted job's
 * @param preemptionBackoff seconds of its current run each earlier preemption adds before a job may be preempted
 *     again (0 = off)
 * @param reserveAfter seconds a gang that can neither start, preempt nor pack waits before it holds GPUs back (0 = off)
 * @param defragmentWhileWaiting true to de-fragment by migration also in a pass that leaves jobs waiting
 * @param declaredIndex true to rank a job by its declared duration while it has GPU-seconds of it left
 * @param makeRoom true to migrate small jobs off a server for a gang that waits for a consolidated placement
 * @param reconsolidate true to move a running gang that runs spread over servers onto one, making room if needed
 * @param unpackRoom true to unpack a packed gang onto a server of its own once no job waits, making room if needed
 * @param unpackWhileWaiting true to unpack also in a pass that leaves jobs waiting, onto GPUs they cannot use
 * @param provenGangPacks true to pack a waiting gang only with model pairs that a running, kept pack has proven
 * @param demotionGrace the share of its queue's lower threshold a demoted job runs before its old queue may preempt
 *     it (0 = off)
 * @param packVictimsAtHost true to preempt a packed job with its partners only at the place in victim order of the
 *     one that comes last ({@code quanta.pack-victims=at-host})
 * @param packLocality true to let a waiting gang that must still consolidate pack only onto a consolidated partner
 *     ({@code quanta.pack-locality=rule})
 * @param censoredThresholds true to learn the queue thresholds from the completed and the alive jobs (Kaplan-Meier,
 *     {@code quanta.service-estimate=censored} or {@code censored-thresholds}) instead of the completed jobs alone
 * @param censoredIndex the same for the 2D-Gittins index ({@code censored} or {@code censored-index})
 * @param moveMinRun seconds a job must have run since it last started before it is moved to make room for another
 *     ({@code quanta.move-min-run-s}, 0 = no bound)
 * @param preemptionServesPreemptor true when a job preempts only where no job ranked ahead of it and left waiting
 *     could take the GPUs freed ({@code quanta.preemption-serves=preemptor})
 * @param gateIndex which index the Gittins gate compares ({@code quanta.gate-index})
 * @param tenantPriorJobs how many jobs spread as the cell's a tenant's estimate holds beside the tenant's own
 *     ({@code quanta.tenant-prior-jobs}, 0 = the tenant's own alone)
 */
public record QuantaSettings(PlacementRule placement, OptionalDouble knob, double packMinGain, double packMinSpeed,
                             boolean unpack, boolean packFirst, boolean gittins, boolean preemptByIndex,
                             boolean fifoLastQueue, boolean indexByTenant, boolean indexGatePrefix,
                             List<Double> thresholdQuantiles, QueueRules queueRules,
                             boolean promotedPreemptsAhead, double promotedMargin, double preemptionBackoff,
                             double reserveAfter, boolean defragmentWhileWaiting, boolean declaredIndex,
                             boolean makeRoom, boolean reconsolidate, boolean unpackRoom,
                             boolean unpackWhileWaiting, boolean provenGangPacks,
                             double demotionGrace, boolean packVictimsAtHost, boolean packLocality,
                             boolean censoredThresholds, boolean censoredIndex, double moveMinRun,
                             boolean preemptionServesPreemptor, GittinsPreemptionGate.LookAhead gateIndex,
                             double tenantPriorJobs) {

    /** quanta's settings read from {@code config}. */
    public static QuantaSettings from(PolicyConfig config) {
        PlacementRule shared = config.placementRule();
        double skew = shared.mode() == PlacementMode.SKEW_AWARE
                ? config.get(PolicyConfigKeys.QUANTA_SKEW_THRESHOLD) : shared.skewThreshold();
        String estimate = config.get(PolicyConfigKeys.QUANTA_SERVICE_ESTIMATE);
        PlacementRule placement = new PlacementRule(shared.mode(), skew,
                config.get(PolicyConfigKeys.QUANTA_RELAXATION_TIMEOUT_S),
                config.get(PolicyConfigKeys.QUANTA_CONSOLIDATION_PATIENCE));
        return new QuantaSettings(placement, config.get(PolicyConfigKeys.QUANTA_STARVATION_KNOB),
                config.get(PolicyConfigKeys.QUANTA_PACK_MIN_GAIN), config.get(PolicyConfigKeys.QUANTA_PACK_MIN_SPEED),
                config.get(PolicyConfigKeys.QUANTA_UNPACK), config.get(PolicyConfigKeys.QUANTA_PACK_FIRST),
                "gittins".equals(config.get(PolicyConfigKeys.QUANTA_RANKING)),
                config.get(PolicyConfigKeys.QUANTA_PREEMPT_BY_INDEX),
                "fifo".equals(config.get(PolicyConfigKeys.QUANTA_LAST_QUEUE)),
                config.get(PolicyConfigKeys.QUANTA_INDEX_BY_TENANT),
                "prefix".equals(config.get(PolicyConfigKeys.QUANTA_INDEX_GATE)),
                config.get(PolicyConfigKeys.QUANTA_THRESHOLD_QUANTILES),
                new QueueRules(config.get(PolicyConfigKeys.PROMOTED_MIN_RUN_S),
                        "whole-run".equals(config.get(PolicyConfigKeys.QUANTA_KNOB_BASIS)),
                        config.get(PolicyConfigKeys.QUANTA_RELEVEL),
                        config.get(PolicyConfigKeys.QUANTA_KNOB_MIN_WAIT_S)),
                "ahead".equals(config.get(PolicyConfigKeys.QUANTA_PROMOTED_PREEMPTS)),
                config.get(PolicyConfigKeys.QUANTA_PROMOTED_PREEMPTS_MARGIN),
                config.get(PolicyConfigKeys.QUANTA_PREEMPTION_BACKOFF_S),
                config.get(PolicyConfigKeys.QUANTA_RESERVE_AFTER_S),
                "always".equals(config.get(PolicyConfigKeys.QUANTA_DEFRAGMENT)),
                "declared".equals(config.get(PolicyConfigKeys.QUANTA_INDEX)),
                config.get(PolicyConfigKeys.QUANTA_MAKE_ROOM), config.get(PolicyConfigKeys.QUANTA_RECONSOLIDATE),
                config.get(PolicyConfigKeys.QUANTA_UNPACK_ROOM),
                config.get(PolicyConfigKeys.QUANTA_UNPACK_WHILE_WAITING),
                "proven".equals(config.get(PolicyConfigKeys.QUANTA_GANG_PACKS)),
                config.get(PolicyConfigKeys.QUANTA_DEMOTION_GRACE),
                "at-host".equals(config.get(PolicyConfigKeys.QUANTA_PACK_VICTIMS)),
                "rule".equals(config.get(PolicyConfigKeys.QUANTA_PACK_LOCALITY)),
                estimate.equals("censored") || estimate.equals("censored-thresholds"),
                estimate.equals("censored") || estimate.equals("censored-index"),
                config.get(PolicyConfigKeys.QUANTA_MOVE_MIN_RUN_S),
                "preemptor".equals(config.get(PolicyConfigKeys.QUANTA_PREEMPTION_SERVES)),
                GittinsPreemptionGate.LookAhead.valueOf(config.get(PolicyConfigKeys.QUANTA_GATE_INDEX)
                        .toUpperCase(Locale.ROOT).replace('-', '_')),
                config.get(PolicyConfigKeys.QUANTA_TENANT_PRIOR_JOBS));
    }

    /** quanta's multi-level queue: the shared thresholds with quanta's starvation knob. */
    public MultiLevelQueue queues(String policy, PolicyConfig config) {
        return queues(policy, config.get(PolicyConfigKeys.THRESHOLDS));
    }

    /** quanta's multi-level queue with these thresholds (learned ones, {@code ThresholdQuantiles}). */
    public MultiLevelQueue queues(String policy, double[] thresholds) {
        return new MultiLevelQueue(policy, thresholds, knob, queueRules);
    }

    /** The configuration quanta's Gandiva mechanisms read: the shared one with quanta's pack threshold. */
    public PolicyConfig introspectionConfig(PolicyConfig config) {
        return config.with(PolicyConfigKeys.INTROSPECTION_MIN_GAIN.name(), Double.toString(packMinGain));
    }
}
