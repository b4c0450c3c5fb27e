package io.quanta.core.bench;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Gpu;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.model.ModelProfile;
import io.quanta.core.model.Node;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.testing.SnapshotFixture;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Random;

/**
 * Deterministic benchmark cells: {@code gpus / 8} nodes of 8 GPUs in racks of 32 nodes, {@code gpus / 2} jobs, half
 * running (sizes 1/2/4/8 first-fit, the last job of each node grown to fill it: every GPU busy; current runs uniform
 * in 0..61 s, so about 2% of them end a 60 s Gandiva time slice now) and half queued
 * (Philly-like sizes 1/2/4/8 at 70/10/10/10%). Running jobs' attained service is log-normal, so they spread over the
 * three queues. STEADY: every queued job is in the last queue with unknown memory: a pass with nothing to do.
 * TYPICAL: the same plus 25 new arrivals in queue 0 that preempt. BURST: 60% of the queued jobs are new
 * arrivals in queue 0: the worst case, hundreds of preemptions in one pass.
 */
final class BenchCells {

    enum Shape { STEADY, TYPICAL, BURST }

    private static final String[] MODELS = {"resnet50", "vgg16", "lstm", "transformer", "inception3"};

    private BenchCells() {
    }

    static ClusterSnapshot cell(int gpus, Shape shape, long seed) {
        Random rnd = new Random(seed);
        int nodeCount = gpus / 8;
        List<Node> nodes = new ArrayList<>(nodeCount);
        for (int n = 0; n < nodeCount; n++) {
            List<Gpu> list = new ArrayList<>(8);
            for (int i = 0; i < 8; i++) {
                list.add(new Gpu(i, "V100", 32_768, true, List.of()));
            }
            nodes.add(new Node(String.format("n%05d", n), String.format("r%03d", n / 32), true, list));
        }
        int[] free = new int[nodeCount];
        java.util.Arrays.fill(free, 8);
        List<Job> jobs = new ArrayList<>();
        int half = gpus / 4;
        int cursor = 0;
        int[] lastJobOnNode = new int[nodeCount];
        java.util.Arrays.fill(lastJobOnNode, -1);
        Instant now = Instant.ofEpochSecond(1_000_000);
        for (int i = 0; i < half; i++) {
            int size = pick(rnd, new int[] {1, 2, 4, 8}, new double[] {0.3, 0.2, 0.2, 0.3});
            int node = firstFit(free, size, cursor);
            if (node < 0) {
                size = 1;
                node = firstFit(free, 1, 0);
            }
            if (node < 0) {
                break;
            }
            cursor = node;
            List<GpuId> placement = new ArrayList<>();
            for (int k = 0; k < size; k++) {
                placement.add(new GpuId(nodes.get(node).id(), 8 - free[node] + k));
            }
            free[node] -= size;
            double attained = Math.exp(rnd.nextGaussian() * 1.5 + 8);
            lastJobOnNode[node] = jobs.size();
            jobs.add(job(rnd, "run" + i, size, i, attained, shape).state(JobState.RUNNING).placement(placement)
                    .executedSeconds(Math.min(attained / size, rnd.nextDouble() * 61)).throughput(10).build());
        }
        for (int node = 0; node < nodeCount; node++) {
            if (free[node] > 0 && lastJobOnNode[node] >= 0) {
                Job last = jobs.get(lastJobOnNode[node]);
                List<GpuId> grown = new ArrayList<>(last.placement());
                for (int k = 8 - free[node]; k < 8; k++) {
                    grown.add(new GpuId(nodes.get(node).id(), k));
                }
                jobs.set(lastJobOnNode[node], last.toBuilder().placement(grown).numGpus(grown.size()).build());
                free[node] = 0;
            }
        }
        for (int i = 0; i < half; i++) {
            int size = pick(rnd, new int[] {1, 2, 4, 8}, new double[] {0.7, 0.1, 0.1, 0.1});
            boolean fresh = switch (shape) {
                case STEADY -> false;
                case TYPICAL -> i >= half - 25;
                case BURST -> rnd.nextDouble() < 0.6;
            };
            double attained = fresh ? 0 : 7300 + rnd.nextDouble() * 20_000;
            Job.Builder b = job(rnd, "wait" + i, size, half + i, attained, shape)
                    .waitingSeconds(fresh ? rnd.nextDouble() * 10 : rnd.nextDouble() * 1000)
                    .executedSeconds(fresh ? 0 : rnd.nextDouble() * 3000);
            if (!fresh) {
                b.profile(ModelProfile.UNKNOWN);
            }
            jobs.add(b.build());
        }
        ServiceDistribution dist = ServiceDistribution.empty(1024, 1);
        for (int i = 0; i < 2000; i++) {
            dist = dist.record(Math.exp(rnd.nextGaussian() * 1.8 + 7));
        }
        return new ClusterSnapshot(now, SnapshotFixture.occupy(nodes, jobs), jobs, dist, InterferenceMemory.empty(64));
    }

    private static Job.Builder job(Random rnd, String id, int size, long seq, double attained, Shape shape) {
        int level = attained >= 7200 ? 2 : attained >= 3250 ? 1 : 0;
        String model = MODELS[rnd.nextInt(MODELS.length)];
        return Job.builder(id).tenant("t" + rnd.nextInt(8)).numGpus(size).arrivalSeq(seq)
                .submittedAt(Instant.ofEpochSecond(seq)).attainedGpuSeconds(attained).queueLevel(level)
                .profile(new ModelProfile(model, rnd.nextDouble(), 4000 + rnd.nextInt(12_000), 50 + rnd.nextInt(200)))
                .expectedDurationSeconds(OptionalDouble.of(attained / size + 100 + rnd.nextDouble() * 5000));
    }

    private static int pick(Random rnd, int[] values, double[] weights) {
        double r = rnd.nextDouble();
        for (int i = 0; i < values.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return values[i];
            }
        }
        return values[values.length - 1];
    }

    private static int firstFit(int[] free, int size, int from) {
        for (int k = 0; k < free.length; k++) {
            int n = (from + k) % free.length;
            if (free[n] >= size) {
                return n;
            }
        }
        return -1;
    }
}
