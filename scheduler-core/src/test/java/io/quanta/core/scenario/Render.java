package io.quanta.core.scenario;

import io.quanta.core.decision.Decision;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.GpuId;
import java.util.List;
import java.util.stream.Collectors;

/** Compact one-line renderings of decisions for table-driven expectations, e.g. {@code START j1 n1/0,n1/1}. */
final class Render {

    private Render() {
    }

    static List<String> all(Decisions decisions) {
        return decisions.list().stream().map(Render::one).toList();
    }

    static String one(Decision d) {
        return switch (d) {
            case Decision.Start s -> "START " + s.jobId() + " " + gpus(s.gpus());
            case Decision.Suspend s -> "SUSPEND " + s.jobId();
            case Decision.Migrate m -> "MIGRATE " + m.jobId() + " " + gpus(m.from()) + "->" + gpus(m.to());
            case Decision.Pack p -> "PACK " + p.jobId() + " " + gpus(p.gpus()) + " with " + String.join(",", p.sharingWith());
            case Decision.Reject r -> "REJECT " + r.jobId();
            case Decision.ChangeQueue c -> "CHANGE_QUEUE " + c.jobId() + " " + c.fromLevel() + "->" + c.toLevel();
            case Decision.RecordInterference r -> "RECORD_INTERFERENCE " + r.jobId() + " " + r.otherJobId();
            case Decision.ConfirmPlacement c -> "CONFIRM_PLACEMENT " + c.jobId();
        };
    }

    private static String gpus(List<GpuId> gpus) {
        return gpus.stream().map(GpuId::toString).collect(Collectors.joining(","));
    }
}
