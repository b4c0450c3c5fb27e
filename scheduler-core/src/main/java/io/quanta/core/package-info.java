/**
 * The scheduling core: pure, deterministic Java, no Kafka, no wall clock.
 *
 * <h2>Contract with the processor (topology / simulator)</h2>
 * <ol>
 *   <li>Build a {@link io.quanta.core.model.ClusterSnapshot} at stream time {@code now}: every non-terminal job with
 *   its attained service, executed and waiting seconds accrued up to {@code now}; every node with, on each GPU, the
 *   ids of the jobs running, starting, suspending from, or reserving it (migration target). A GPU is free only when
 *   its node is alive, it is healthy and it lists no job.</li>
 *   <li>Call {@link io.quanta.core.policy.SchedulingPolicy#decide} and apply the
 *   {@link io.quanta.core.decision.Decisions} in order:
 *   <ul>
 *     <li>{@code Start(job, gpus)}: QUEUED to STARTING on {@code gpus} (all free); send StartJob; RUNNING on STARTED.</li>
 *     <li>{@code Pack(job, gpus, with)}: like Start on GPUs shared with {@code with}; set the sharing sets of all of
 *     them, set {@code placementChangedAt = now} on all of them and {@code baselineThroughput} = each partner's current
 *     throughput (NaN for the new job). When an attempt of a packed job ends (suspended, moved, finished), each
 *     partner leaves its sharing set and its throughput becomes unknown (NaN) until its next telemetry: the rate it
 *     had was measured while sharing, and a later pack must not take it as the partner's speed alone.</li>
 *     <li>{@code Suspend(job)}: RUNNING to SUSPENDING (GPUs still held); QUEUED when SUSPENDED arrives (GPUs free,
 *     waiting counter restarts at 0, executed seconds of the last run kept); clear introspection fields.</li>
 *     <li>{@code Migrate(job, from, to)}: suspend, list the job on {@code to} as reserved, set
 *     {@code previousPlacement = from}, {@code baselineThroughput} = current throughput; on SUSPENDED start it on
 *     {@code to} at once and set {@code placementChangedAt} to that time.</li>
 *     <li>{@code Reject(job)}: REJECTED (terminal).</li>
 *     <li>{@code ChangeQueue(job, from, to)}: persist {@code queueLevel = to}; a promotion also restarts the waiting
 *     counter.</li>
 *     <li>{@code RecordInterference(a, b, modelA, modelB)}: {@code interferenceMemory.record(modelA, modelB)}.</li>
 *     <li>{@code ConfirmPlacement(job)}: clear {@code placementChangedAt}, {@code baselineThroughput} and
 *     {@code previousPlacement}.</li>
 *   </ul></li>
 *   <li>Run a pass after every input that changes the state (arrival, SUSPENDED, COMPLETED, FAILED, node change) at
 *   that record's stream time, and at {@link io.quanta.core.policy.SchedulingPolicy#nextWakeUp} (computed on the
 *   snapshot after applying the pass). Passes converge: a pass on the state left by the previous pass at the same time
 *   returns nothing new, or very little; the test-jar's {@code TinyEventLoop} is a reference implementation of this
 *   contract (it also shows the exact bookkeeping of every decision).</li>
 *   <li>On completion record the job's total attained service into the
 *   {@link io.quanta.core.model.ServiceDistribution} (start from {@code PolicyConfig.newServiceDistribution()}).</li>
 * </ol>
 * Preempting policies suspend victims in one pass and start the waiting job in a later pass, once the victims'
 * GPUs are free; GPUs of SUSPENDING jobs count as soon free and are earmarked for the waiting job.
 */
package io.quanta.core;
