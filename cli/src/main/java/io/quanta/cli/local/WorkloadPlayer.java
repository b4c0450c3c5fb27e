package io.quanta.cli.local;

import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits a trace's jobs at their arrival times, compressed by the speed: job {@code j} is produced at
 * {@code origin + j.submit / speed} (wall time), as a {@code JobSubmitted} with the trace's duration as its expected
 * service time, its virtual cluster as tenant (or one tenant for every job, the one a secured cluster authenticates
 * the player as) and the simulator's seeded model profile. Starts after the first
 * {@code alreadySubmitted} jobs (a resumed run). Runs on its own thread until every job is submitted or it is stopped.
 */
public final class WorkloadPlayer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkloadPlayer.class);

    private final Trace trace;
    private final String idPrefix;
    private final Instant origin;
    private final double speed;
    private final ProfileAssigner profiles;
    private final Producer<String, JobRequest> producer;
    private final String topic;
    private final Optional<String> tenant;
    private final Clock clock;
    private final Consumer<TraceJob> beforeSubmit;
    private volatile int submitted;
    private volatile boolean running = true;
    private Thread thread;

    /**
     * @param idPrefix prefix of the job ids (distinguishes runs on one cluster)
     * @param origin the wall instant of the trace's time 0
     * @param tenant the tenant of every job (the one {@code topic} belongs to when tenants are authenticated by
     *     topic); empty: each job's virtual cluster
     * @param alreadySubmitted jobs of the trace submitted by an earlier run (skipped)
     * @param beforeSubmit told about each job just before it is produced
     */
    public WorkloadPlayer(Trace trace, String idPrefix, Instant origin, double speed, ProfileAssigner profiles,
                          Producer<String, JobRequest> producer, String topic, Optional<String> tenant, Clock clock,
                          int alreadySubmitted, Consumer<TraceJob> beforeSubmit) {
        this.trace = trace;
        this.idPrefix = idPrefix;
        this.origin = origin;
        this.speed = speed;
        this.profiles = profiles;
        this.producer = producer;
        this.topic = topic;
        this.tenant = tenant;
        this.clock = clock;
        this.submitted = alreadySubmitted;
        this.beforeSubmit = beforeSubmit;
    }

    /** This player (not started) with trace time 0 at {@code wallOrigin}. */
    public WorkloadPlayer withOrigin(Instant wallOrigin) {
        return new WorkloadPlayer(trace, idPrefix, wallOrigin, speed, profiles, producer, topic, tenant, clock,
                submitted, beforeSubmit);
    }

    /** The tenant of every job, when not each job's virtual cluster. */
    public Optional<String> tenant() {
        return tenant;
    }

    /** The id a trace job gets on the cluster. */
    public String jobId(TraceJob job) {
        return idPrefix + job.jobId();
    }

    /** The wall instant at which {@code job} is due. */
    public Instant dueAt(TraceJob job) {
        return origin.plusNanos(Math.round(job.submitSeconds() / speed * 1e9));
    }

    /** Starts submitting on a thread of its own. */
    public synchronized WorkloadPlayer start() {
        if (thread == null) {
            thread = new Thread(this::run, "quanta-workload");
            thread.setDaemon(true);
            thread.start();
        }
        return this;
    }

    /** Jobs submitted so far (including those of an earlier run). */
    public int submitted() {
        return submitted;
    }

    /** Whether every job has been submitted. */
    public boolean done() {
        return submitted >= trace.size();
    }

    @Override
    public void close() {
        running = false;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        producer.close(Duration.ofSeconds(10));
    }

    private void run() {
        List<TraceJob> jobs = trace.jobs();
        try {
            while (running && submitted < jobs.size()) {
                TraceJob next = jobs.get(submitted);
                if (!waitUntil(dueAt(next))) {
                    break;
                }
                int batch = 0;
                while (submitted < jobs.size() && !dueAt(jobs.get(submitted)).isAfter(clock.instant())) {
                    send(jobs.get(submitted));
                    submitted++;
                    batch++;
                }
                producer.flush();
                LOG.debug("submitted {} jobs, {}/{} in all", batch, submitted, jobs.size());
            }
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("workload stopped: could not submit job {} of {}", submitted + 1, jobs.size(), e);
            }
        }
    }

    /** The submission of {@code job} made at {@code now}. */
    public JobRequest request(TraceJob job, Instant now) {
        JobSubmitted submittedJob = JobSubmitted.newBuilder()
                .setJobId(jobId(job))
                .setTenant(tenant.orElse(job.tenant()))
                .setNumGpus(job.numGpus())
                .setProfile(profiles.kindOf(job.jobId()).profile())
                .setExpectedDurationSeconds(job.durationSeconds())
                .setSubmittedAt(now)
                .build();
        return JobRequest.newBuilder().setRequest(submittedJob).build();
    }

    private void send(TraceJob job) {
        beforeSubmit.accept(job);
        String id = jobId(job);
        Instant now = clock.instant();
        producer.send(new ProducerRecord<>(topic, null, now.toEpochMilli(), id, request(job, now)),
                (metadata, error) -> {
                    if (error != null) {
                        LOG.atWarn().addKeyValue("job", id).log("submission not delivered: {}", error.toString());
                    }
                });
        LOG.atDebug().addKeyValue("job", id).addKeyValue("gpus", job.numGpus()).log("submitted");
    }

    /** Parks until {@code due}; false when stopped first. */
    private boolean waitUntil(Instant due) {
        while (running) {
            long nanos = Duration.between(clock.instant(), due).toNanos();
            if (nanos <= 0) {
                return true;
            }
            LockSupport.parkNanos(Math.min(nanos, TimeUnit.MILLISECONDS.toNanos(200)));
        }
        return false;
    }
}
