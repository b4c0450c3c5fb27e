package io.quanta.core.testing;

import io.quanta.core.model.GpuId;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Entry points of the fluent test fixtures: {@code aNode("n1").rack("r1").gpus(8)},
 * {@code aJob("j1").gpus(4).attained(100)}, {@code aCell().at(0).nodes(...).jobs(...).build()}.
 * Jobs get increasing arrival sequence numbers in creation order unless {@code seq(..)} is given.
 */
public final class Fixtures {

    private static final AtomicLong SEQ = new AtomicLong();

    private Fixtures() {
    }

    public static NodeFixture aNode(String id) {
        return new NodeFixture(id);
    }

    public static JobFixture aJob(String id) {
        return new JobFixture(id, SEQ.incrementAndGet());
    }

    public static SnapshotFixture aCell() {
        return new SnapshotFixture();
    }

    public static GpuId gpu(String nodeId, int index) {
        return new GpuId(nodeId, index);
    }
}
