package io.quanta.bench;

import picocli.CommandLine.Option;

/**
 * Options that several benchmark commands share, one picocli mixin each, defined once. A command gives its own
 * default through the constructor ({@code @Mixin PartitionsOption topics = new PartitionsOption(3);}): picocli takes
 * a mixin field's initial value as the option's default and shows it as {@code ${DEFAULT-VALUE}}.
 */
final class SharedOptions {

    private SharedOptions() {
    }

    /** {@code --partitions}: partitions of every topic the benchmark creates. */
    static final class PartitionsOption {
        @Option(names = "--partitions", description = "Partitions per topic (${DEFAULT-VALUE}).")
        int partitions;

        PartitionsOption(int partitions) {
            this.partitions = partitions;
        }
    }

    /** {@code --nodes}: simulated 8-GPU nodes. */
    static final class NodesOption {
        @Option(names = "--nodes", description = "Simulated 8-GPU nodes (${DEFAULT-VALUE}).")
        int nodes;

        NodesOption(int nodes) {
            this.nodes = nodes;
        }
    }

    /** {@code --heartbeat-ms}: heartbeat interval of the simulated nodes, 5 s as the node connector's default. */
    static final class HeartbeatOption {
        @Option(names = "--heartbeat-ms", description = "Heartbeat interval (${DEFAULT-VALUE}).")
        long heartbeatMs = 5000;
    }

}
