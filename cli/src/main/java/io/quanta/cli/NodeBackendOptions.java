package io.quanta.cli;

import io.quanta.node.NodeSettings;
import java.util.Locale;
import picocli.CommandLine.Option;

/** How the nodes of {@code quanta local} run jobs: simulated GPUs of a model, or this machine's GPUs. */
final class NodeBackendOptions {

    @Option(names = "--backend", paramLabel = "KIND", defaultValue = "simulated",
            description = "simulated (default) or process (real jobs on this machine's GPUs).")
    String backend;

    @Option(names = "--gpu-model", paramLabel = "MODEL", defaultValue = "V100",
            description = "GPU model of simulated nodes (default ${DEFAULT-VALUE}).")
    String gpuModel;

    /** The backend {@code --backend} names, case-insensitively; fails naming the value otherwise. */
    NodeSettings.Backend backend() {
        return switch (backend.toLowerCase(Locale.ROOT)) {
            case "simulated" -> NodeSettings.Backend.SIMULATED;
            case "process" -> NodeSettings.Backend.PROCESS;
            default -> throw new IllegalArgumentException("--backend must be simulated or process, got '" + backend
                    + "'");
        };
    }
}
