package io.quanta.chaos.infra;

/**
 * A simulated node connector to run as a child process.
 *
 * @param nodeId        its id (also the name of its work directory)
 * @param gpus          virtual GPUs
 * @param speed         time compression of the simulated jobs
 * @param partitionable true: its broker traffic goes through the stack's proxy, so it can be cut off
 */
public record NodeSpec(String nodeId, int gpus, double speed, boolean partitionable) {

    public static NodeSpec of(String nodeId, int gpus, double speed) {
        return new NodeSpec(nodeId, gpus, speed, false);
    }
}
