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
 * and {@code introspection.min-gain} for quanta only, so that the baselines keep their papers' defaults. The keys are
 * grouped by the part of a pass they steer, so that a new key touches one small record.
 *
 * @param placement the placement rule: the configured mode, quanta's skew threshold, relaxation timeout and
 *     consolidation patience
 * @param knob the starvation knob of quanta's queues
 * @param queueRules how quanta's queues move jobs up and down (knob basis, re-levelling, the knob's least wait)
 * @param order how quanta learns its queue thresholds and orders the jobs inside a queue
 * @param preemption when a waiting job may preempt a running one
 * @param packing when jobs share GPUs and when a pack is split
 * @param room when running jobs move or GPUs are held back to make room for a waiting gang
 */
public record QuantaSettings(PlacementRule placement, OptionalDouble knob, QueueRules queueRules, Order order,
                             Preemption preemption, Packing packing, Room room) {

    /**
     * How quanta learns and orders.
     *
     * @param gittins true to order jobs inside a queue by the learned 2D-Gittins index, false for FIFO
     * @param fifoLastQueue true to order the last queue by arrival instead of by index
     * @param indexByTenant true to compute a job's index from its tenant's recent completed jobs when they say enough
     * @param tenantPriorJobs how many jobs spread as the cell's a tenant's estimate holds beside the tenant's own
     *     ({@code quanta.tenant-prior-jobs}, 0 = the tenant's own alone)
     * @param declaredIndex true to rank a job by its declared duration while it has GPU-seconds of it left
     * @param thresholdQuantiles the quantiles of completed jobs' service that become the queue thresholds (empty = the
     *     configured thresholds)
     * @param censoredThresholds true to learn the queue thresholds from the completed and the alive jobs (Kaplan-Meier,
     *     {@code quanta.service-estimate=censored} or {@code censored-thresholds}) instead of the completed jobs alone
     * @param censoredIndex the same for the 2D-Gittins index ({@code censored} or {@code censored-index})
     */
    public record Order(boolean gittins, boolean fifoLastQueue, boolean indexByTenant, double tenantPriorJobs,
                        boolean declaredIndex, List<Double> thresholdQuantiles, boolean censoredThresholds,
                        boolean censoredIndex) {

        static Order from(PolicyConfig config) {
            String estimate = config.get(PolicyConfigKeys.QUANTA_SERVICE_ESTIMATE);
            return new Order("gittins".equals(config.get(PolicyConfigKeys.QUANTA_RANKING)),
                    "fifo".equals(config.get(PolicyConfigKeys.QUANTA_LAST_QUEUE)),
                    config.get(PolicyConfigKeys.QUANTA_INDEX_BY_TENANT),
                    config.get(PolicyConfigKeys.QUANTA_TENANT_PRIOR_JOBS),
                    "declared".equals(config.get(PolicyConfigKeys.QUANTA_INDEX)),
                    config.get(PolicyConfigKeys.QUANTA_THRESHOLD_QUANTILES),
                    estimate.equals("censored") || estimate.equals("censored-thresholds"),
                    estimate.equals("censored") || estimate.equals("censored-index"));
        }
    }

    /**
     * When a waiting job may preempt.
     *
     * @param byIndex true to preempt only a running job with a lower 2D-Gittins index than the waiting job's
     * @param gatePrefix true when the waiting job must also beat the index of every job before the victim in victim
     *     order
     * @param gateIndex which index the Gittins gate compares ({@code quanta.gate-index})
     * @param promotedAhead true when a job promoted by the knob preempts only jobs that attained more service
     * @param promotedMargin the factor by which such a victim's attained service must exceed the promoted job's
     * @param backoff seconds of its current run each earlier preemption adds before a job may be preempted again
     *     (0 = off)
     * @param demotionGrace the share of its queue's lower threshold a demoted job runs before its old queue may
     *     preempt it (0 = off)
     * @param packVictimsAtHost true to preempt a packed job with its partners only at the place in victim order of
     *     the one that comes last ({@code quanta.pack-victims=at-host})
     * @param servesPreemptor true when a job preempts only where no job ranked ahead of it and left waiting could take
     *     the GPUs freed ({@code quanta.preemption-serves=preemptor})
     */
    public record Preemption(boolean byIndex, boolean gatePrefix, GittinsPreemptionGate.LookAhead gateIndex,
                             boolean promotedAhead, double promotedMargin, double backoff, double demotionGrace,
                             boolean packVictimsAtHost, boolean servesPreemptor) {

        static Preemption from(PolicyConfig config) {
            return new Preemption(config.get(PolicyConfigKeys.QUANTA_PREEMPT_BY_INDEX),
                    "prefix".equals(config.get(PolicyConfigKeys.QUANTA_INDEX_GATE)),
                    GittinsPreemptionGate.LookAhead.valueOf(config.get(PolicyConfigKeys.QUANTA_GATE_INDEX)
                            .toUpperCase(Locale.ROOT).replace('-', '_')),
                    "ahead".equals(config.get(PolicyConfigKeys.QUANTA_PROMOTED_PREEMPTS)),
                    config.get(PolicyConfigKeys.QUANTA_PROMOTED_PREEMPTS_MARGIN),
                    config.get(PolicyConfigKeys.QUANTA_PREEMPTION_BACKOFF_S),
                    config.get(PolicyConfigKeys.QUANTA_DEMOTION_GRACE),
                    "at-host".equals(config.get(PolicyConfigKeys.QUANTA_PACK_VICTIMS)),
                    "preemptor".equals(config.get(PolicyConfigKeys.QUANTA_PREEMPTION_SERVES)));
        }
    }

    /**
     * When jobs share GPUs.
     *
     * @param minGain the normalised gain over running one job at a time that a pack must show to be kept
     * @param minSpeed the share of its speed alone below which a packed job's model pair is not packed again
     * @param unpack true to move a packed job to free GPUs once no job waits
     * @param first true to try packing a waiting job before planning a preemption for it
     * @param unpackWhileWaiting true to unpack also in a pass that leaves jobs waiting, onto GPUs they cannot use
     * @param provenGangPacks true to pack a waiting gang only with model pairs that a running, kept pack has proven
     * @param locality true to let a waiting gang that must still consolidate pack only onto a consolidated partner
     *     ({@code quanta.pack-locality=rule})
     */
    public record Packing(double minGain, double minSpeed, boolean unpack, boolean first, boolean unpackWhileWaiting,
                          boolean provenGangPacks, boolean locality) {

        static Packing from(PolicyConfig config) {
            return new Packing(config.get(PolicyConfigKeys.QUANTA_PACK_MIN_GAIN),
                    config.get(PolicyConfigKeys.QUANTA_PACK_MIN_SPEED), config.get(PolicyConfigKeys.QUANTA_UNPACK),
                    config.get(PolicyConfigKeys.QUANTA_PACK_FIRST),
                    config.get(PolicyConfigKeys.QUANTA_UNPACK_WHILE_WAITING),
                    "proven".equals(config.get(PolicyConfigKeys.QUANTA_GANG_PACKS)),
                    "rule".equals(config.get(PolicyConfigKeys.QUANTA_PACK_LOCALITY)));
        }
    }

    /**
     * When running jobs move, or GPUs are held back, for a waiting gang.
     *
     * @param makeRoom true to migrate small jobs off a server for a gang that waits for a consolidated placement
     * @param reconsolidate true to move a running gang that runs spread over servers onto one, making room if needed
     * @param unpackRoom true to unpack a packed gang onto a server of its own once no job waits, making room if needed
     * @param moveMinRun seconds a job must have run since it last started before it is moved to make room for another
     *     ({@code quanta.move-min-run-s}, 0 = no bound)
     * @param reserveAfter seconds a gang that can neither start, preempt nor pack waits before it holds GPUs back
     *     (0 = off)
     * @param defragmentWhileWaiting true to de-fragment by migration also in a pass that leaves jobs waiting
     */
    public record Room(boolean makeRoom, boolean reconsolidate, boolean unpackRoom, double moveMinRun,
                       double reserveAfter, boolean defragmentWhileWaiting) {

        static Room from(PolicyConfig config) {
            return new Room(config.get(PolicyConfigKeys.QUANTA_MAKE_ROOM),
                    config.get(PolicyConfigKeys.QUANTA_RECONSOLIDATE), config.get(PolicyConfigKeys.QUANTA_UNPACK_ROOM),
                    config.get(PolicyConfigKeys.QUANTA_MOVE_MIN_RUN_S),
                    config.get(PolicyConfigKeys.QUANTA_RESERVE_AFTER_S),
                    "always".equals(config.get(PolicyConfigKeys.QUANTA_DEFRAGMENT)));
        }
    }

    /** quanta's settings read from {@code config}. */
    public static QuantaSettings from(PolicyConfig config) {
        PlacementRule shared = config.placementRule();
        double skew = shared.mode() == PlacementMode.SKEW_AWARE
                ? config.get(PolicyConfigKeys.QUANTA_SKEW_THRESHOLD) : shared.skewThreshold();
        PlacementRule placement = new PlacementRule(shared.mode(), skew,
                config.get(PolicyConfigKeys.QUANTA_RELAXATION_TIMEOUT_S),
                config.get(PolicyConfigKeys.QUANTA_CONSOLIDATION_PATIENCE));
        QueueRules queueRules = new QueueRules(config.get(PolicyConfigKeys.PROMOTED_MIN_RUN_S),
                "whole-run".equals(config.get(PolicyConfigKeys.QUANTA_KNOB_BASIS)),
                config.get(PolicyConfigKeys.QUANTA_RELEVEL), config.get(PolicyConfigKeys.QUANTA_KNOB_MIN_WAIT_S));
        return new QuantaSettings(placement, config.get(PolicyConfigKeys.QUANTA_STARVATION_KNOB), queueRules,
                Order.from(config), Preemption.from(config), Packing.from(config), Room.from(config));
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
        return config.with(PolicyConfigKeys.INTROSPECTION_MIN_GAIN.name(), Double.toString(packing.minGain()));
    }
}
