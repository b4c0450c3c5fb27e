package io.quanta.streams.testing;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;

import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeCommand;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A seeded, scripted cluster around a {@link SchedulerDriver}: nodes heartbeat every 10 s (one node goes silent for a
 * while), jobs arrive at random times, and every command is answered like a node would (STARTED after 1 s, COMPLETED
 * after the job's remaining work, SUSPENDED 2 s after a SUSPEND, FAILED 1 s after a KILL; some attempts fail).
 * The same seed always feeds the same inputs in reaction to the same outputs.
 */
public final class MiniCluster {

    private record Pending(long atMs, long seq, Runnable input) {
    }

    private final SchedulerDriver driver;
    private final Random random;
    private final PriorityQueue<Pending> queue = new PriorityQueue<>((a, b) -> a.atMs != b.atMs
            ? Long.compare(a.atMs, b.atMs) : Long.compare(a.seq, b.seq));
    private final Map<String, Long> remainingMs = new HashMap<>();
    private final Map<String, Long> startedAt = new HashMap<>();
    private final long heartbeatEverySeconds;
    private long seq;
    private int commandsSeen;

    public MiniCluster(SchedulerDriver driver, long seed) {
        this(driver, seed, 10);
    }

    /** A cluster whose nodes heartbeat every {@code heartbeatEverySeconds} of stream time. */
    public MiniCluster(SchedulerDriver driver, long seed, long heartbeatEverySeconds) {
        this.driver = driver;
        this.random = new Random(seed);
        this.heartbeatEverySeconds = heartbeatEverySeconds;
    }

    /** The number of input records given so far. */
    public long inputs() {
        return seq;
    }

    /** Runs {@code jobs} arrivals on {@code nodes} nodes of 4 GPUs for {@code seconds} of stream time. */
    public void run(int nodes, int jobs, long seconds) {
        for (long t = 0; t <= seconds; t += heartbeatEverySeconds) {
            for (int n = 0; n < nodes; n++) {
                String id = "n" + n;
                long second = t;
                if (n == 1 && t > seconds / 3 && t < seconds / 3 + 6 * heartbeatEverySeconds) {
                    continue;
                }
                schedule(second * 1000 + n, () -> driver.heartbeat(node(id, SchedulerDriver.CELL, 4, epoch(id, second), at(second))
                        .build()));
            }
        }
        for (int j = 0; j < jobs; j++) {
            String id = String.format("job-%03d", j);
            long arrival = (long) (random.nextDouble() * seconds * 0.6) * 1000;
            int gpus = 1 << random.nextInt(3);
            long work = (30 + random.nextInt(300)) * 1000L;
            remainingMs.put(id, work);
            schedule(arrival, () -> driver.submit(job(id, gpus).setMaxRetries(1).build(), Instant.ofEpochMilli(
                    at(0).toEpochMilli() + arrival)));
        }
        while (!queue.isEmpty()) {
            Pending next = queue.poll();
            next.input().run();
            react(next.atMs());
            if (commandsSeen > 10_000) {
                driver.forget();
                commandsSeen = 0;
            }
        }
    }

    private static long epoch(String nodeId, long second) {
        return nodeId.equals("n2") && second > 200 ? 2 : 1;
    }

    private void react(long nowMs) {
        var commands = driver.commands();
        for (; commandsSeen < commands.size(); commandsSeen++) {
            NodeCommand c = commands.get(commandsSeen);
            String key = c.getJobId();
            switch (c.getType()) {
                case START -> {
                    boolean fails = random.nextInt(10) == 0;
                    schedule(nowMs + 1000, () -> driver.event(ev(c, JobEventType.STARTED, nowMs + 1000)));
                    startedAt.put(key + "#" + c.getAttempt(), nowMs + 1000);
                    long done = nowMs + 1000 + (fails ? 5000 : remainingMs.getOrDefault(key, 60_000L));
                    schedule(done, () -> driver.event(ev(c, fails ? JobEventType.FAILED : JobEventType.COMPLETED, done)));
                }
                case SUSPEND -> {
                    Long began = startedAt.get(key + "#" + c.getAttempt());
                    if (began != null) {
                        remainingMs.merge(key, -(nowMs - began), Long::sum);
                    }
                    schedule(nowMs + 2000, () -> driver.event(JobEvent.newBuilder(ev(c, JobEventType.SUSPENDED, nowMs + 2000))
                            .setCheckpointRef("ckpt-" + key + "-" + c.getAttempt()).build()));
                }
                case KILL -> schedule(nowMs + 1000, () -> driver.event(ev(c, JobEventType.FAILED, nowMs + 1000)));
            }
        }
    }

    private static JobEvent ev(NodeCommand c, JobEventType type, long atMs) {
        return JobEvent.newBuilder(event(c.getJobId(), c.getAttempt(), c.getNodeId(), type,
                Instant.ofEpochMilli(at(0).toEpochMilli() + atMs))).setEpoch(c.getEpoch()).build();
    }

    private void schedule(long atMs, Runnable input) {
        queue.add(new Pending(atMs, seq++, input));
    }
}
