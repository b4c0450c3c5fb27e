package io.quanta.core.decision;

import io.quanta.core.model.GpuId;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One outcome of a scheduling pass. Every decision names its job, carries a human-readable {@code reason} that
 * names the rule that produced it (e.g. {@code "tiresias-las: ..."}) and a small, sorted {@code details} map for the
 * audit trail (attained service, queue level, index value...). The processor applies them in list order.
 */
public sealed interface Decision {

    /** The job the decision is about. */
    String jobId();

    /** Why: the rule and the numbers that triggered it. */
    String reason();

    /** Sorted audit details, possibly empty. */
    SortedMap<String, String> details();

    /** Stable upper-case name of the decision type, e.g. {@code START}, for logs and the decisions topic. */
    default String type() {
        return switch (this) {
            case Start s -> "START";
            case Suspend s -> "SUSPEND";
            case Migrate m -> "MIGRATE";
            case Pack p -> "PACK";
            case Reject r -> "REJECT";
            case ChangeQueue c -> "CHANGE_QUEUE";
            case RecordInterference r -> "RECORD_INTERFERENCE";
            case ConfirmPlacement c -> "CONFIRM_PLACEMENT";
        };
    }

    /** Start a QUEUED job on {@code gpus}, all free in the snapshot (gang: all of them or nothing). */
    record Start(String jobId, List<GpuId> gpus, String reason, SortedMap<String, String> details) implements Decision {
        public Start {
            jobId = requireId(jobId);
            gpus = sortedGpus(gpus, jobId);
            reason = requireReason(reason);
            details = freeze(details);
        }

        public Start(String jobId, List<GpuId> gpus, String reason) {
            this(jobId, gpus, reason, new TreeMap<>());
        }
    }

    /** Suspend a RUNNING job (checkpoint at the next minibatch boundary, release its GPUs, back to QUEUED). */
    record Suspend(String jobId, String reason, SortedMap<String, String> details) implements Decision {
        public Suspend {
            jobId = requireId(jobId);
            reason = requireReason(reason);
            details = freeze(details);
        }

        public Suspend(String jobId, String reason) {
            this(jobId, reason, new TreeMap<>());
        }
    }

    /**
     * Move a RUNNING job from {@code from} (its placement) to {@code to} (free in the snapshot): the processor
     * suspends it, keeps {@code to} reserved for it, and restarts it there once SUSPENDED.
     */
    record Migrate(String jobId, List<GpuId> from, List<GpuId> to, String reason, SortedMap<String, String> details)
            implements Decision {
        public Migrate {
            jobId = requireId(jobId);
            from = sortedGpus(from, jobId);
            to = sortedGpus(to, jobId);
            reason = requireReason(reason);
            details = freeze(details);
        }

        public Migrate(String jobId, List<GpuId> from, List<GpuId> to, String reason) {
            this(jobId, from, to, reason, new TreeMap<>());
        }
    }

    /**
     * Start a QUEUED job on {@code gpus} that it deliberately shares with the running jobs {@code sharingWith}
     * (packing, memory fits). The processor records the partners' current throughput as their baseline.
     */
    record Pack(String jobId, List<GpuId> gpus, List<String> sharingWith, String reason, SortedMap<String, String> details)
            implements Decision {
        public Pack {
            jobId = requireId(jobId);
            gpus = sortedGpus(gpus, jobId);
            sharingWith = List.copyOf(new java.util.TreeSet<>(sharingWith));
            if (sharingWith.isEmpty()) {
                throw new IllegalArgumentException("pack of job " + jobId + " must name the jobs it shares with");
            }
            reason = requireReason(reason);
            details = freeze(details);
        }

        public Pack(String jobId, List<GpuId> gpus, List<String> sharingWith, String reason) {
            this(jobId, gpus, sharingWith, reason, new TreeMap<>());
        }
    }

    /** Refuse a job for good (e.g. larger than the cell); the job becomes REJECTED. */
    record Reject(String jobId, String reason, SortedMap<String, String> details) implements Decision {
        public Reject {
            jobId = requireId(jobId);
            reason = requireReason(reason);
            details = freeze(details);
        }

        public Reject(String jobId, String reason) {
            this(jobId, reason, new TreeMap<>());
        }
    }

    /** Move a job between queues (demotion at a threshold, promotion by the starvation knob); persisted. */
    record ChangeQueue(String jobId, int fromLevel, int toLevel, String reason, SortedMap<String, String> details)
            implements Decision {
        public ChangeQueue {
            jobId = requireId(jobId);
            if (fromLevel < 0 || toLevel < 0 || fromLevel == toLevel) {
                throw new IllegalArgumentException(
                        "queue change of job " + jobId + " needs distinct levels >= 0, got " + fromLevel + " -> " + toLevel);
            }
            reason = requireReason(reason);
            details = freeze(details);
        }

        public ChangeQueue(String jobId, int fromLevel, int toLevel, String reason) {
            this(jobId, fromLevel, toLevel, reason, new TreeMap<>());
        }
    }

    /**
     * Remember that models {@code modelA} (of {@code jobId}) and {@code modelB} (of {@code otherJobId}) interfere when
     * packed; the processor adds the pair to the {@code InterferenceMemory}.
     */
    record RecordInterference(String jobId, String otherJobId, String modelA, String modelB, String reason,
                              SortedMap<String, String> details) implements Decision {
        public RecordInterference {
            jobId = requireId(jobId);
            otherJobId = requireId(otherJobId);
            Objects.requireNonNull(modelA, "modelA");
            Objects.requireNonNull(modelB, "modelB");
            reason = requireReason(reason);
            details = freeze(details);
        }

        public RecordInterference(String jobId, String otherJobId, String modelA, String modelB, String reason) {
            this(jobId, otherJobId, modelA, modelB, reason, new TreeMap<>());
        }
    }

    /**
     * Introspection is over for this job: keep its current placement. The processor clears the job's
     * {@code placementChangedAt}, {@code baselineThroughput} and {@code previousPlacement}.
     */
    record ConfirmPlacement(String jobId, String reason, SortedMap<String, String> details) implements Decision {
        public ConfirmPlacement {
            jobId = requireId(jobId);
            reason = requireReason(reason);
            details = freeze(details);
        }

        public ConfirmPlacement(String jobId, String reason) {
            this(jobId, reason, new TreeMap<>());
        }
    }

    private static String requireId(String id) {
        Objects.requireNonNull(id, "jobId");
        if (id.isBlank()) {
            throw new IllegalArgumentException("decision job id must not be blank");
        }
        return id;
    }

    private static String requireReason(String reason) {
        Objects.requireNonNull(reason, "reason");
        if (reason.isBlank()) {
            throw new IllegalArgumentException("every decision needs a reason naming its rule");
        }
        return reason;
    }

    private static List<GpuId> sortedGpus(List<GpuId> gpus, String jobId) {
        List<GpuId> sorted = List.copyOf(gpus);
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i - 1).compareTo(sorted.get(i)) > 0) {
                sorted = sorted.stream().sorted().toList();
                break;
            }
        }
        if (sorted.isEmpty()) {
            throw new IllegalArgumentException("decision for job " + jobId + " needs at least one GPU");
        }
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).equals(sorted.get(i - 1))) {
                throw new IllegalArgumentException("decision for job " + jobId + " lists GPU " + sorted.get(i) + " twice");
            }
        }
        return sorted;
    }

    private static SortedMap<String, String> freeze(Map<String, String> details) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(details == null ? Map.of() : details));
    }
}
