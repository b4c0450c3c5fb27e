package io.quanta.core.config;

import io.quanta.core.placement.PlacementMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * The catalogue of policy configuration keys, their defaults and documentation, in one place (like Kafka's
 * {@code ConfigDef}). Besides these, keys {@code quota.<tenant>} give a tenant's GPU quota (integer >= 0).
 */
public final class PolicyConfigKeys {

    /** Prefix of per-tenant quota keys, e.g. {@code quota.vision=64}. */
    public static final String QUOTA_PREFIX = "quota.";

    public static final ConfigKey<String> POLICY = new ConfigKey<>("policy", "quanta",
            "fifo, srtf-oracle, tiresias-las, tiresias-gittins, gandiva, quanta",
            "Scheduling policy, by registered name.", PolicyConfigKeys::name);

    public static final ConfigKey<PlacementMode> PLACEMENT_STRATEGY = new ConfigKey<>("placement.strategy",
            "skew-aware", "consolidated, skew-aware, anywhere",
            "Placement rule for multi-GPU jobs.", PlacementMode::parse);

    public static final ConfigKey<Double> SKEW_THRESHOLD = new ConfigKey<>("placement.skew-threshold", "0.5",
            "a number in [0, 1]", "Tensor-size skew at or above which skew-aware placement consolidates a job.",
            t -> range(Double.parseDouble(t), 0, 1));

    public static final ConfigKey<Double> RELAXATION_TIMEOUT_S = new ConfigKey<>("placement.relaxation-timeout-s",
            "300", "a number of seconds >= 0",
            "Seconds a job waits for a consolidated placement before it accepts a relaxed one.",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<Boolean> PACKING = new ConfigKey<>("placement.packing", "on", "on, off",
            "Allow packing jobs on shared GPUs under over-subscription when memory fits (gandiva, quanta).",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<Integer> MAX_JOBS_PER_GPU = new ConfigKey<>("placement.max-jobs-per-gpu", "2",
            "an integer in [2, 8]", "Most jobs packed on one GPU.", t -> (int) range(Integer.parseInt(t), 2, 8));

    public static final ConfigKey<double[]> THRESHOLDS = new ConfigKey<>("tiresias.thresholds", "3250,7200",
            "a comma-separated, strictly ascending list of positive GPU-seconds (K-1 values for K queues)",
            "Queue thresholds of the multi-level queue in attained GPU-seconds.", PolicyConfigKeys::ascending);

    public static final ConfigKey<OptionalDouble> STARVATION_KNOB = new ConfigKey<>("tiresias.starvation-knob", "off",
            "off, or a positive number",
            "Promote a queued job to queue 0 when waiting >= knob x its last executed time (off like dlas-gpu).",
            PolicyConfigKeys::offOrPositive);

    public static final ConfigKey<Double> PROMOTED_MIN_RUN_S = new ConfigKey<>("tiresias.promoted-min-run-s", "60",
            "a number of seconds >= 0",
            "A promoted job already above its queue threshold runs at least this long before it is demoted again.",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<double[]> GITTINS_PRIOR = new ConfigKey<>("gittins.prior",
            "60,180,420,900,1500,2400,3600,5400,7200,10800,18000,28800,43200,86400,172800,345600",
            "a comma-separated, strictly ascending list of positive GPU-seconds",
            "Prior sample of job service used until enough jobs have completed.", PolicyConfigKeys::ascending);

    public static final ConfigKey<Integer> GITTINS_MIN_SAMPLES = new ConfigKey<>("gittins.min-samples", "32",
            "an integer >= 1", "Completed jobs needed before the learned distribution replaces the prior.",
            t -> (int) range(Integer.parseInt(t), 1, Integer.MAX_VALUE));

    public static final ConfigKey<Integer> GITTINS_CAPACITY = new ConfigKey<>("gittins.capacity", "1024",
            "an integer in [16, 1048576]", "Size of the bounded reservoir of completed jobs' service.",
            t -> (int) range(Integer.parseInt(t), 16, 1 << 20));

    public static final ConfigKey<Long> GITTINS_SEED = new ConfigKey<>("gittins.seed", "42", "a 64-bit integer",
            "Seed of the deterministic reservoir sampling.", Long::parseLong);

    public static final ConfigKey<Double> QUANTUM_S = new ConfigKey<>("gandiva.quantum-s", "60",
            "a number of seconds > 0", "Time-slice quantum of gandiva when over-subscribed.",
            t -> positive(Double.parseDouble(t)));

    public static final ConfigKey<Double> INTROSPECTION_WINDOW_S = new ConfigKey<>("introspection.window-s", "120",
            "a number of seconds > 0", "Seconds after a pack or migration before its throughput is judged.",
            t -> positive(Double.parseDouble(t)));

    public static final ConfigKey<Double> INTROSPECTION_MIN_GAIN = new ConfigKey<>("introspection.min-gain", "0",
            "a number in [0, 1]",
            "A pack is kept when the sum of normalised throughputs >= 1 + min-gain; a migration when >= its baseline.",
            t -> range(Double.parseDouble(t), 0, 1));

    public static final ConfigKey<Boolean> MIGRATION = new ConfigKey<>("migration.enabled", "on", "on, off",
            "Migrate running jobs to de-fragment multi-GPU placements (gandiva, quanta).", PolicyConfigKeys::onOff);

    public static final ConfigKey<Integer> MIGRATIONS_PER_PASS = new ConfigKey<>("migration.max-per-pass", "2",
            "an integer >= 0", "Most de-fragmentation migrations started by one pass.",
            t -> (int) range(Integer.parseInt(t), 0, Integer.MAX_VALUE));

    public static final ConfigKey<OptionalDouble> DEFAULT_QUOTA = new ConfigKey<>("quota.default", "off",
            "off, or an integer >= 0",
            "GPU quota of tenants without a quota.<tenant> key; off = unlimited (quanta only).",
            PolicyConfigKeys::offOrNonNegativeInt);

    public static final ConfigKey<Integer> INTERFERENCE_CAPACITY = new ConfigKey<>("interference.capacity", "4096",
            "an integer >= 1", "Most bad model pairs remembered.",
            t -> (int) range(Integer.parseInt(t), 1, Integer.MAX_VALUE));

    public static final ConfigKey<Double> QUANTA_PACK_MIN_GAIN = new ConfigKey<>("quanta.pack-min-gain", "0.1",
            "a number in [0, 1]",
            "quanta keeps a pack only when the sum of normalised throughputs >= 1 + this (its introspection.min-gain;"
                    + " a pack that merely equals running one job at a time only slows the job already running).",
            t -> range(Double.parseDouble(t), 0, 1));

    public static final ConfigKey<Double> QUANTA_PACK_MIN_SPEED = new ConfigKey<>("quanta.pack-min-speed", "0",
            "a number in [0, 1]",
            "quanta never packs again a model pair of which one job ran below this share of its speed alone (0, the"
                    + " default, = off): a bound on what a pack may cost one job, at some cost in average JCT.",
            t -> range(Double.parseDouble(t), 0, 1));

    public static final ConfigKey<Boolean> QUANTA_UNPACK = new ConfigKey<>("quanta.unpack", "on", "on, off",
            "quanta moves a packed job to free GPUs once no job waits (packing pays only while jobs wait; a pack"
                    + " slows its jobs for as long as it lasts); at most migration.max-per-pass per pass.",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<Boolean> QUANTA_PACK_FIRST = new ConfigKey<>("quanta.pack-first", "off", "on, off",
            "quanta tries to pack a waiting job that does not fit the free GPUs before it plans a preemption for it"
                    + " (off = packing only when no preemption is allowed): a pack keeps both jobs running, where a"
                    + " preemption stops one and pays a suspend and a resume; introspection still undoes a pack that"
                    + " does not gain.",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<Double> QUANTA_SKEW_THRESHOLD = new ConfigKey<>("quanta.skew-threshold", "0.05",
            "a number in [0, 1]",
            "quanta's placement.skew-threshold under skew-aware placement: every model with more tensor-size skew"
                    + " than this loses speed when spread, so quanta consolidates it.",
            t -> range(Double.parseDouble(t), 0, 1));

    public static final ConfigKey<Double> QUANTA_RELAXATION_TIMEOUT_S = new ConfigKey<>(
            "quanta.relaxation-timeout-s", "3600", "a number of seconds >= 0",
            "quanta's placement.relaxation-timeout-s: a gang that runs spread is slowed for its whole run, so quanta"
                    + " waits up to this long for a consolidated placement before it accepts a relaxed one.",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<OptionalDouble> QUANTA_STARVATION_KNOB = new ConfigKey<>("quanta.starvation-knob",
            "4", "off, or a positive number",
            "quanta's tiresias.starvation-knob: a queued job is promoted to queue 0 after waiting knob x its last"
                    + " executed time (a guard for the tail, on by default for quanta).",
            PolicyConfigKeys::offOrPositive);

    public static final ConfigKey<String> QUANTA_RANKING = new ConfigKey<>("quanta.ranking", "gittins",
            "las, gittins",
            "Order inside a queue for quanta: FIFO (las) or the 2D-Gittins index learned from completed jobs"
                    + " (gittins, with gittins.* keys).", PolicyConfigKeys::lasOrGittins);

    public static final ConfigKey<Double> QUANTA_CONSOLIDATION_PATIENCE = new ConfigKey<>(
            "quanta.consolidation-patience", "0.5", "a number >= 0",
            "A gang that already ran waits for a consolidated placement up to this many times the time it has run"
                    + " (attained GPU-seconds over its GPUs), when that is longer than quanta.relaxation-timeout-s: a"
                    + " long run is likely to go on long and would be slowed all that time if spread (0 = off).",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<Boolean> QUANTA_PREEMPT_BY_INDEX = new ConfigKey<>("quanta.preempt-by-index",
            "on", "on, off",
            "quanta preempts a running job of a lower queue only when the waiting job's 2D-Gittins index (learned from"
                    + " completed jobs) is higher than the running job's: preempt only when it pays.",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<String> QUANTA_LAST_QUEUE = new ConfigKey<>("quanta.last-queue", "fifo",
            "gittins, fifo",
            "How quanta orders its last queue: gittins = by 2D-Gittins index like the queues above it; fifo = by"
                    + " arrival, as Tiresias does, so that the jobs that attained the most service (index near 0) do"
                    + " not wait behind every job demoted after them.",
            oneOf("gittins", "fifo"));

    public static final ConfigKey<Boolean> QUANTA_INDEX_BY_TENANT = new ConfigKey<>("quanta.index-by-tenant", "on",
            "on, off",
            "on = quanta computes a job's 2D-Gittins index from its own tenant's last completed jobs (up to 32, once it"
                    + " has 8 and one of them ran longer than the job so far), else from the cell's: a team's next job"
                    + " tends to be like its last ones, which tells a short job from a long one before either ran (a"
                    + " cell of one tenant thus ranks by its last 32 jobs).",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<String> QUANTA_INDEX_GATE = new ConfigKey<>("quanta.index-gate", "each",
            "each, prefix",
            "With quanta.preempt-by-index=on: each = the waiting job's index must beat the victim's; prefix = it must"
                    + " also beat every running job before the victim in Tiresias' victim order (the latest arrivals"
                    + " of the lowest queue first), so that preemption stops at the first job it does not beat"
                    + " instead of reaching past it to the oldest, longest jobs.",
            oneOf("each", "prefix"));

    public static final ConfigKey<List<Double>> QUANTA_THRESHOLD_QUANTILES = new ConfigKey<>(
            "quanta.threshold-quantiles", "0.8,0.95",
            "off, or a comma-separated, strictly ascending list of numbers in (0, 1)",
            "quanta's queue thresholds learned from the cell's completed jobs: threshold i is this quantile of their"
                    + " service (GPU-seconds) once gittins.min-samples jobs completed, tiresias.thresholds until"
                    + " then (off = always tiresias.thresholds). Tiresias' 3,250 and 7,200 GPU-s came from one"
                    + " cluster; quantiles of the cell's own jobs fit its sizes.",
            PolicyConfigKeys::offOrQuantiles);

    public static final ConfigKey<String> QUANTA_KNOB_BASIS = new ConfigKey<>("quanta.knob-basis", "last-run",
            "last-run, whole-run",
            "What quanta's starvation knob multiplies: the job's last run (Tiresias) or all the time it has run"
                    + " (attained GPU-seconds over its GPUs). With whole-run a job promoted, run briefly and preempted"
                    + " again waits longer each time instead of coming back after knob x that short run.",
            oneOf("last-run", "whole-run"));

    public static final ConfigKey<Boolean> QUANTA_RELEVEL = new ConfigKey<>("quanta.relevel", "off", "on, off",
            "quanta moves a job back up to the queue its attained service belongs to when the learned thresholds rose"
                    + " above it (they start low: short jobs complete first); off = only the starvation knob moves"
                    + " jobs up.",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<Double> QUANTA_KNOB_MIN_WAIT_S = new ConfigKey<>("quanta.knob-min-wait-s", "0",
            "a number of seconds >= 0",
            "quanta's starvation knob promotes a job only after it waited at least this long, however short its last"
                    + " run (0 = knob x last run alone).",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<String> QUANTA_PROMOTED_PREEMPTS = new ConfigKey<>("quanta.promoted-preempts",
            "ahead", "any, ahead",
            "Which running jobs a job promoted by quanta's starvation knob may preempt: any of a lower queue, or only"
                    + " those that attained more service than it (ahead).",
            oneOf("any", "ahead"));

    public static final ConfigKey<Double> QUANTA_PREEMPTION_BACKOFF_S = new ConfigKey<>(
            "quanta.preemption-backoff-s", "0", "a number of seconds >= 0",
            "quanta does not preempt a job that was preempted k times before until it has run k x this many seconds in"
                    + " its current run: a preemption budget that refills with progress (0 = off).",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<Double> QUANTA_PROMOTED_PREEMPTS_MARGIN = new ConfigKey<>(
            "quanta.promoted-preempts-margin", "2", "a number >= 1",
            "With quanta.promoted-preempts=ahead, a promoted job preempts only jobs that attained more than this"
                    + " many times its own service (1 = any more): hysteresis between alike jobs, such as long gangs"
                    + " that each hold a whole server and would otherwise take turns by the starvation knob.",
            t -> range(Double.parseDouble(t), 1, Double.MAX_VALUE));

    public static final ConfigKey<Double> QUANTA_RESERVE_AFTER_S = new ConfigKey<>("quanta.reserve-after-s", "0",
            "a number of seconds >= 0",
            "A gang (more than one GPU) that has waited this long since it was last queued and can neither start,"
                    + " preempt nor pack holds back the free GPUs of the servers nearest to holding it, so that jobs"
                    + " behind it cannot take them and the GPUs that free up there add up until it fits; one job per"
                    + " pass, the first in priority order (0 = off).",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<String> QUANTA_DEFRAGMENT = new ConfigKey<>("quanta.defragment", "idle",
            "idle, always",
            "When quanta de-fragments by migration (with migration.enabled=on): idle = only in a pass that leaves no"
                    + " job waiting, as Gandiva does; always = also while jobs wait, onto the free GPUs that no waiting"
                    + " job could use in that pass (under heavy load jobs nearly always wait, and a gang that started"
                    + " spread would otherwise stay spread, and slow, for its whole run).",
            oneOf("idle", "always"));

    public static final ConfigKey<String> QUANTA_INDEX = new ConfigKey<>("quanta.index", "learned",
            "learned, declared",
            "Where quanta's 2D-Gittins index comes from: learned = from the cell's (or the tenant's) completed jobs;"
                    + " declared = a job that declares its duration (JobSubmitted.expectedDurationSeconds) is ranked,"
                    + " and gates preemption, by its declared GPU-seconds left (shortest first) until it has attained"
                    + " them, then by the learned index. A declaration that is too short gains no more than itself;"
                    + " for cells whose users declare durations they can be held to.",
            oneOf("learned", "declared"));

    public static final ConfigKey<Boolean> QUANTA_MAKE_ROOM = new ConfigKey<>("quanta.make-room", "on", "on, off",
            "on = a gang that waits for a consolidated placement while enough GPUs are free, only not on one server,"
                    + " gets one: the server that needs the fewest moves is emptied by migrating its smaller jobs onto"
                    + " free GPUs of other servers (at most migration.max-per-pass moves per pass), and its GPUs are"
                    + " held back for the gang; off = the gang waits until a server frees up or its relaxation"
                    + " timeout lets it start spread.",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<Boolean> QUANTA_RECONSOLIDATE = new ConfigKey<>("quanta.reconsolidate", "on",
            "on, off",
            "on = a running gang of at most one server's GPUs that runs spread over servers (it started spread after"
                    + " its relaxation timeout) moves onto one server before the waiting jobs are placed: at once when"
                    + " one has the free GPUs, else room is made there as quanta.make-room makes it (its smaller jobs"
                    + " migrate to free GPUs elsewhere); with migration.enabled=on only, and its moves share"
                    + " migration.max-per-pass with make-room; off = a spread gang moves only onto a server already"
                    + " free, when no job waits (Gandiva).",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<Boolean> QUANTA_UNPACK_ROOM = new ConfigKey<>("quanta.unpack-room", "off",
            "on, off",
            "on = with quanta.unpack=on, once no job waits a packed gang of at most one server's GPUs that wants one"
                    + " server and finds none free has one emptied for it as quanta.make-room empties one (its smaller"
                    + " jobs migrate to free GPUs elsewhere, within migration.max-per-pass) and moves there; with"
                    + " migration.enabled=on only; off = a packed gang unpacks only onto GPUs already free.",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<Boolean> QUANTA_UNPACK_WHILE_WAITING = new ConfigKey<>(
            "quanta.unpack-while-waiting", "off", "on, off",
            "on = with quanta.unpack=on, unpack also in a pass that leaves jobs waiting, onto the free GPUs they could"
                    + " not use in it (a gang waiting for one server or for more GPUs than are free); off = unpack only"
                    + " in a pass that leaves no job waiting.",
            PolicyConfigKeys::onOff);

    public static final ConfigKey<String> QUANTA_GANG_PACKS = new ConfigKey<>("quanta.gang-packs", "any",
            "any, proven",
            "Which model pairs a waiting gang (2 or more GPUs) may pack with: any = every pair not remembered as"
                    + " interfering, as a one-GPU job; proven = only the pairs of a pack now running that introspection"
                    + " kept, so that an unmeasured pair is tried by one-GPU jobs and not at the cost of a whole gang.",
            oneOf("any", "proven"));

    public static final ConfigKey<String> QUANTA_PACK_LOCALITY = new ConfigKey<>("quanta.pack-locality", "rule",
            "any, rule",
            "Where a waiting gang (2 or more GPUs) may pack: any = onto any partner of its size, spread or not; rule ="
                    + " a gang that the placement rule still keeps waiting for a consolidated placement (before its"
                    + " relaxation timeout, or its consolidation patience) packs only onto a partner whose GPUs are on"
                    + " as few servers as the gang needs, so that it is not spread by a pack when it would not be"
                    + " spread by a start, and no spread pack holds GPUs on many servers for days.",
            oneOf("any", "rule"));

    public static final ConfigKey<String> QUANTA_PACK_VICTIMS = new ConfigKey<>("quanta.pack-victims", "at-host",
            "with-guest, at-host",
            "When a packed job is preempted with its partners: with-guest = at the place in victim order of the first"
                    + " of them that comes, as the other policies do; at-host = at the place of the last of them (its"
                    + " most protected member), so that packing a job onto another does not make the host yield"
                    + " earlier than it would alone.",
            oneOf("with-guest", "at-host"));

    public static final ConfigKey<Double> QUANTA_DEMOTION_GRACE = new ConfigKey<>("quanta.demotion-grace", "0.1",
            "a number >= 0",
            "Hysteresis on demotion: a running job whose attained service is less than (1 + this) x its queue's lower"
                    + " threshold (it was just demoted) may be preempted only by a job at least two queues above it, not"
                    + " by a job of the queue it just left (0 = off: demoted jobs are preempted at once, as in Tiresias).",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<String> QUANTA_SERVICE_ESTIMATE = new ConfigKey<>("quanta.service-estimate",
            "completed", "completed, censored, censored-index, censored-thresholds",
            "What quanta learns its queue thresholds (quanta.threshold-quantiles) and its 2D-Gittins index from:"
                    + " completed = the cell's completed jobs' service; censored = the completed jobs and the jobs"
                    + " still alive, each counted as at least the service it attained (Kaplan-Meier), so that while"
                    + " long jobs run the estimate is not the short jobs' alone and a job that outlived every"
                    + " completed one keeps an index above 0; censored-index / censored-thresholds = the censored"
                    + " estimate for the index only / the thresholds only, the completed jobs' for the other.",
            oneOf("completed", "censored", "censored-index", "censored-thresholds"));

    public static final ConfigKey<Double> QUANTA_MOVE_MIN_RUN_S = new ConfigKey<>("quanta.move-min-run-s", "0",
            "a number of seconds >= 0",
            "quanta moves a job to make room for another (quanta.make-room, quanta.reconsolidate, quanta.unpack-room)"
                    + " only once it has run this long since it last started, was resumed or was moved: a bound on how"
                    + " much of one job's time other jobs' gangs can spend on its checkpoints and restarts (0 = only"
                    + " the check of a moved job's new placement, introspection.window-s, keeps it from moving again).",
            PolicyConfigKeys::nonNegative);

    public static final ConfigKey<String> QUANTA_PREEMPTION_SERVES = new ConfigKey<>("quanta.preemption-serves",
            "preemptor", "anyone, preemptor",
            "Whom the GPUs a preemption frees may serve: anyone = the next pass gives them to the waiting job ranked"
                    + " first, which may be another than the one that preempted for them (as the other policies do);"
                    + " preemptor = a waiting job preempts only where no job ranked ahead of it, left waiting in the"
                    + " same pass, could be placed on the free GPUs and those the preemption frees: such a job would"
                    + " take them, though its own preemption gates kept it from preempting for them, and the preemptor"
                    + " would preempt again in the next pass.",
            oneOf("anyone", "preemptor"));

    public static final ConfigKey<String> QUANTA_GATE_INDEX = new ConfigKey<>("quanta.gate-index", "threshold",
            "threshold, best, best-when-zero",
            "Which 2D-Gittins index quanta's preemption gate (quanta.preempt-by-index) compares: threshold = the one"
                    + " that orders the queues, whose look-ahead ends at each job's next queue threshold (a waiting"
                    + " job whose like jobs all ran past that threshold has index 0 and preempts nobody, however much"
                    + " longer the victim is expected to run); best = the Gittins index proper, the largest over every"
                    + " look-ahead, which compares jobs of any queue; best-when-zero = the queues' index, except for a"
                    + " waiting job whose queues' index is 0: it and its victims are compared by the index over every"
                    + " look-ahead.",
            oneOf("threshold", "best", "best-when-zero"));

    public static final ConfigKey<Double> QUANTA_TENANT_PRIOR_JOBS = new ConfigKey<>("quanta.tenant-prior-jobs",
            "0", "a number of jobs in [0, 1000000]",
            "With quanta.index-by-tenant=on: a tenant's estimate of its next job's service holds, beside the tenant's"
                    + " own last completed jobs, this many more jobs spread as the cell's completed jobs are, so that"
                    + " a few dozen jobs of one tenant never say that its next job cannot end where the cell's jobs"
                    + " say it can (0 = the tenant's jobs alone: a tenant whose last jobs all ran past the first queue"
                    + " threshold gets index 0 there and its new jobs preempt nobody).",
            t -> range(Double.parseDouble(t), 0, 1_000_000));

    /** Every key, sorted by name. */
    public static final List<ConfigKey<?>> ALL = sorted(List.of(POLICY, PLACEMENT_STRATEGY, SKEW_THRESHOLD,
            RELAXATION_TIMEOUT_S, PACKING, MAX_JOBS_PER_GPU, THRESHOLDS, STARVATION_KNOB, PROMOTED_MIN_RUN_S,
            GITTINS_PRIOR, GITTINS_MIN_SAMPLES, GITTINS_CAPACITY, GITTINS_SEED, QUANTUM_S, INTROSPECTION_WINDOW_S,
            INTROSPECTION_MIN_GAIN, MIGRATION, MIGRATIONS_PER_PASS, DEFAULT_QUOTA, INTERFERENCE_CAPACITY,
            QUANTA_PACK_MIN_GAIN, QUANTA_PACK_MIN_SPEED, QUANTA_UNPACK, QUANTA_PACK_FIRST, QUANTA_SKEW_THRESHOLD,
            QUANTA_RELAXATION_TIMEOUT_S, QUANTA_STARVATION_KNOB, QUANTA_RANKING,
            QUANTA_CONSOLIDATION_PATIENCE, QUANTA_PREEMPT_BY_INDEX, QUANTA_INDEX_GATE, QUANTA_LAST_QUEUE,
            QUANTA_INDEX_BY_TENANT, QUANTA_THRESHOLD_QUANTILES,
            QUANTA_KNOB_BASIS, QUANTA_RELEVEL, QUANTA_KNOB_MIN_WAIT_S, QUANTA_PROMOTED_PREEMPTS,
            QUANTA_PREEMPTION_BACKOFF_S, QUANTA_PROMOTED_PREEMPTS_MARGIN, QUANTA_RESERVE_AFTER_S,
            QUANTA_DEFRAGMENT, QUANTA_INDEX, QUANTA_MAKE_ROOM, QUANTA_RECONSOLIDATE, QUANTA_UNPACK_ROOM,
            QUANTA_UNPACK_WHILE_WAITING, QUANTA_GANG_PACKS,
            QUANTA_DEMOTION_GRACE, QUANTA_PACK_VICTIMS, QUANTA_PACK_LOCALITY, QUANTA_SERVICE_ESTIMATE,
            QUANTA_MOVE_MIN_RUN_S, QUANTA_PREEMPTION_SERVES, QUANTA_GATE_INDEX, QUANTA_TENANT_PRIOR_JOBS));

    private PolicyConfigKeys() {
    }

    private static List<ConfigKey<?>> sorted(List<ConfigKey<?>> keys) {
        List<ConfigKey<?>> copy = new ArrayList<>(keys);
        copy.sort((a, b) -> a.name().compareTo(b.name()));
        return List.copyOf(copy);
    }

    private static String name(String t) {
        if (t.isEmpty() || !t.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("policy names are lower-case words joined by '-'");
        }
        return t;
    }

    private static String lasOrGittins(String t) {
        if (!t.equals("las") && !t.equals("gittins")) {
            throw new IllegalArgumentException("not las/gittins");
        }
        return t;
    }

    static boolean onOff(String t) {
        return switch (t.toLowerCase(Locale.ROOT)) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new IllegalArgumentException("not on/off");
        };
    }

    static double range(double v, double min, double max) {
        if (Double.isNaN(v) || v < min || v > max) {
            throw new IllegalArgumentException("out of range");
        }
        return v;
    }

    /** A number >= 0 (seconds, GPU-seconds); NaN and infinity are refused. */
    static double nonNegative(String t) {
        return range(Double.parseDouble(t), 0, Double.MAX_VALUE);
    }

    static double positive(double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("must be > 0");
        }
        return v;
    }

    private static double[] ascending(String t) {
        double[] values = Arrays.stream(t.split(",")).map(String::trim).mapToDouble(Double::parseDouble).toArray();
        for (int i = 0; i < values.length; i++) {
            positive(values[i]);
            if (i > 0 && values[i] <= values[i - 1]) {
                throw new IllegalArgumentException("not strictly ascending");
            }
        }
        return values;
    }

    private static List<Double> offOrQuantiles(String t) {
        if ("off".equalsIgnoreCase(t.trim())) {
            return List.of();
        }
        double[] values = ascending(t);
        for (double v : values) {
            if (!(v < 1)) {
                throw new IllegalArgumentException("a quantile must be below 1");
            }
        }
        return Arrays.stream(values).boxed().toList();
    }

    /** A parser that accepts one of {@code allowed} (trimmed, any case) and gives it in lower case. */
    private static Function<String, String> oneOf(String... allowed) {
        List<String> values = List.of(allowed);
        return t -> {
            String v = t.trim().toLowerCase(Locale.ROOT);
            if (!values.contains(v)) {
                throw new IllegalArgumentException("not one of " + String.join(", ", values));
            }
            return v;
        };
    }

    private static OptionalDouble offOrPositive(String t) {
        return "off".equalsIgnoreCase(t) ? OptionalDouble.empty() : OptionalDouble.of(positive(Double.parseDouble(t)));
    }

    private static OptionalDouble offOrNonNegativeInt(String t) {
        return "off".equalsIgnoreCase(t) ? OptionalDouble.empty() : OptionalDouble.of(range(Integer.parseInt(t), 0, 1e9));
    }
}
