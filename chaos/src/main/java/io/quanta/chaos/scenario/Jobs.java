package io.quanta.chaos.scenario;

import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.ModelProfile;
import java.time.Instant;

/** Valid submissions for simulated nodes. */
final class Jobs {

    private Jobs() {
    }

    /**
     * A job of {@code gpus} GPUs that runs {@code seconds} simulated seconds at full speed.
     */
    static JobSubmitted job(String id, String tenant, int gpus, long seconds) {
        return JobSubmitted.newBuilder().setJobId(id).setTenant(tenant).setNumGpus(gpus)
                .setProfile(ModelProfile.newBuilder().setModelName(gpus % 2 == 0 ? "resnet50" : "lstm")
                        .setMinibatchMillis(100.0).build())
                .setExpectedDurationSeconds(seconds).setSubmittedAt(Instant.now()).build();
    }
}
