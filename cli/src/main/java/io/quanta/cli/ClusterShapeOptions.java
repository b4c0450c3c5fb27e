package io.quanta.cli;

import io.quanta.sim.cluster.ClusterShape;
import picocli.CommandLine.Option;

/** The shape of a simulated cluster: {@code --cluster RxSxG}, or racks, servers and GPUs one flag each. */
final class ClusterShapeOptions {

    @Option(names = "--cluster", paramLabel = "RxSxG",
            description = "Racks x servers per rack x GPUs per server (default 1x4x8); or the three flags below.")
    String cluster;

    @Option(names = "--racks", paramLabel = "N", defaultValue = "1", description = "Racks (default ${DEFAULT-VALUE}).")
    int racks;

    @Option(names = "--servers", paramLabel = "N", defaultValue = "4",
            description = "Servers per rack (default ${DEFAULT-VALUE}).")
    int servers;

    @Option(names = "--gpus", paramLabel = "N", defaultValue = "8",
            description = "GPUs per server (default ${DEFAULT-VALUE}).")
    int gpus;

    /** The shape {@code --cluster} names, else the one of the three flags. */
    ClusterShape shape() {
        return cluster != null ? ClusterShape.parse(cluster) : new ClusterShape(racks, servers, gpus);
    }
}
