package io.quanta.node;

import io.quanta.node.gpu.GpuModels;
import io.quanta.node.gpu.GpuProbe;
import io.quanta.node.gpu.NvidiaSmiGpuProbe;
import io.quanta.node.gpu.SimulatedGpuProbe;
import io.quanta.node.model.ThroughputModel;
import io.quanta.node.runner.JobRunner;
import io.quanta.node.runner.NodeWorkDir;
import io.quanta.node.runner.ProcessJobRunner;
import io.quanta.node.runner.ProcessRunnerSettings;
import io.quanta.node.runner.SimulatedJobRunner;
import io.quanta.node.runner.WallClockSimulatedRunner;
import io.quanta.node.telemetry.TelemetryAggregator;
import io.quanta.node.telemetry.UdpTelemetryServer;
import java.time.Clock;
import java.time.Duration;

/**
 * What runs this node's jobs and lists its GPUs, for the configured {@code node.backend}: real processes in their
 * sandbox, GPUs from nvidia-smi and a UDP endpoint where jobs report their telemetry; or simulated jobs on simulated
 * GPUs, in wall-clock time, without an endpoint. {@link #close()} releases the runner, then the endpoint.
 */
final class NodeBackend implements AutoCloseable {

    private final JobRunner runner;
    private final GpuProbe probe;
    private final UdpTelemetryServer telemetryServer;

    private NodeBackend(JobRunner runner, GpuProbe probe, UdpTelemetryServer telemetryServer) {
        this.runner = runner;
        this.probe = probe;
        this.telemetryServer = telemetryServer;
    }

    /** The backend of {@code settings}; a process backend's telemetry goes to {@code aggregator}. */
    static NodeBackend create(NodeSettings settings, NodeWorkDir workDir, TelemetryAggregator aggregator,
                              Clock clock) {
        if (settings.backend() == NodeSettings.Backend.SIMULATED) {
            SimulatedJobRunner simulation = new SimulatedJobRunner(settings.nodeId(),
                    ThroughputModel.named(settings.throughputModel()), node -> settings.rack(), settings.simSpeed(),
                    clock.instant());
            int memory = settings.gpuMemoryMiB() > 0 ? settings.gpuMemoryMiB()
                    : GpuModels.memoryMiB(settings.gpuModel()).orElse(GpuModels.DEFAULT_MEMORY_MIB);
            return new NodeBackend(new WallClockSimulatedRunner(simulation, clock), new SimulatedGpuProbe(
                    settings.nodeId(), settings.gpus(), settings.gpuModel(), memory, simulation::gpuUsage), null);
        }
        UdpTelemetryServer server = new UdpTelemetryServer(settings.telemetryPort(), aggregator, clock);
        try {
            JobRunner runner = new ProcessJobRunner(workDir, new ProcessRunnerSettings(settings.suspendDeadline(),
                    settings.termGrace(), server.endpoint(), settings.stderrLines(), settings.sandbox()), clock);
            return new NodeBackend(runner, new NvidiaSmiGpuProbe(settings.nvidiaSmi(), Duration.ofSeconds(10)),
                    server);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Runs the attempts. */
    JobRunner runner() {
        return runner;
    }

    /** Lists the GPUs. */
    GpuProbe probe() {
        return probe;
    }

    /** The telemetry endpoint given to jobs ({@code udp://127.0.0.1:port}); empty for the simulated backend. */
    String telemetryEndpoint() {
        return telemetryServer == null ? "" : telemetryServer.endpoint();
    }

    @Override
    public void close() {
        runner.close();
        if (telemetryServer != null) {
            telemetryServer.close();
        }
    }
}
