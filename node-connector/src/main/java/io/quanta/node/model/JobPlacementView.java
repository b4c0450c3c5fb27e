package io.quanta.node.model;

import io.quanta.schemas.GpuRef;
import io.quanta.schemas.ModelProfile;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the throughput model needs to know about one running job: its model, how far its GPUs are spread, and the
 * models of the jobs packed on the same GPUs.
 *
 * @param profile the job's model profile
 * @param gpus number of GPUs of the gang, at least 1
 * @param servers number of distinct servers the gang spans, 1..gpus
 * @param racks number of distinct racks the gang spans, 1..servers
 * @param packedWith profiles of the other jobs sharing at least one of its GPUs (empty when it has them to itself)
 */
public record JobPlacementView(ModelProfile profile, int gpus, int servers, int racks, List<ModelProfile> packedWith) {

    public JobPlacementView {
        Objects.requireNonNull(profile, "profile");
        packedWith = List.copyOf(packedWith);
        if (gpus < 1 || servers < 1 || racks < 1 || servers > gpus || racks > servers) {
            throw new IllegalArgumentException("need 1 <= racks <= servers <= gpus, got gpus=" + gpus + " servers="
                    + servers + " racks=" + racks);
        }
    }

    /** A job alone on {@code gpus} GPUs of one server. */
    public static JobPlacementView consolidated(ModelProfile profile, int gpus) {
        return new JobPlacementView(profile, gpus, 1, 1, List.of());
    }

    /**
     * The view of a job placed on {@code placement} (every GPU of its gang).
     *
     * @param rackOfNode rack of a node id; return the same value for every node when racks are unknown
     * @param packedWith profiles of the jobs sharing its GPUs
     */
    public static JobPlacementView of(ModelProfile profile, Collection<GpuRef> placement,
                                      Function<String, String> rackOfNode, List<ModelProfile> packedWith) {
        if (placement.isEmpty()) {
            return new JobPlacementView(profile, 1, 1, 1, packedWith);
        }
        int servers = (int) placement.stream().map(GpuRef::getNodeId).distinct().count();
        int racks = (int) placement.stream().map(GpuRef::getNodeId).distinct().map(rackOfNode).distinct().count();
        return new JobPlacementView(profile, placement.size(), servers, racks, packedWith);
    }
}
