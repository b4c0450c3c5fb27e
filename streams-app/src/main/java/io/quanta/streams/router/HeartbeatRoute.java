package io.quanta.streams.router;

import io.quanta.core.model.Gpu;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SourceRef;
import io.quanta.streams.store.CellKeys;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Routes {@code quanta.nodes.heartbeats} to the cell each node declares, remembering node to cell. When a node
 * declares another cell than before, its heartbeat also goes to the old cell, which then lets the node go (its jobs
 * are requeued). Heartbeats with a bad node id, cell id, epoch or GPU list go to the dead letters.
 */
final class HeartbeatRoute implements InputRoute<NodeHeartbeat> {

    private final String storeName;
    private KeyValueStore<String, String> nodeCells;

    HeartbeatRoute(String storeName) {
        this.storeName = storeName;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void init(Function<String, StateStore> stores) {
        nodeCells = (KeyValueStore<String, String>) stores.apply(storeName);
    }

    @Override
    public RouteOutcome route(String key, NodeHeartbeat beat, SourceRef source, Instant at) {
        Optional<String> problem = problem(key, beat);
        if (problem.isPresent()) {
            return RouteOutcome.deadLetter("heartbeat refused: " + problem.get());
        }
        CellInput input = CellInput.newBuilder().setCellId(beat.getCellId()).setInput(beat).setSource(source).build();
        String previous = nodeCells.get(beat.getNodeId());
        if (beat.getCellId().equals(previous)) {
            return RouteOutcome.to(input);
        }
        nodeCells.put(beat.getNodeId(), beat.getCellId());
        if (previous == null) {
            return RouteOutcome.to(input);
        }
        return RouteOutcome.to(CellInput.newBuilder(input).setCellId(previous).build(), input);
    }

    private static Optional<String> problem(String key, NodeHeartbeat beat) {
        if (beat.getNodeId().isBlank()) {
            return Optional.of("node id is blank");
        }
        if (key != null && !key.equals(beat.getNodeId())) {
            return Optional.of("record key '" + key + "' differs from node id '" + beat.getNodeId() + "'");
        }
        if (!CellKeys.isValidCellId(beat.getCellId())) {
            return Optional.of("cell id '" + beat.getCellId() + "' is not 1 to 128 letters, digits, '.', '_' or '-'");
        }
        if (beat.getEpoch() < 0) {
            return Optional.of("epoch must be >= 0, got " + beat.getEpoch());
        }
        Set<Integer> seen = new HashSet<>();
        for (GpuInfo gpu : beat.getGpus()) {
            if (gpu.getIndex() < 0 || gpu.getIndex() > Gpu.MAX_INDEX || !seen.add(gpu.getIndex())) {
                return Optional.of("GPU index " + gpu.getIndex() + " is out of [0, " + Gpu.MAX_INDEX + "] or repeated");
            }
            if (gpu.getMemoryTotalMiB() < 0) {
                return Optional.of("GPU " + gpu.getIndex() + " has negative memory " + gpu.getMemoryTotalMiB());
            }
        }
        return Optional.empty();
    }
}
