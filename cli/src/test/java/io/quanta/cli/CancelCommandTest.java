package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What {@code quanta cancel} refuses before sending anything (the cluster part: {@code SecuredClusterIT}). */
class CancelCommandTest {

    private final JobStatus visionsJob = JobStatus.newBuilder().setJobId("job-1").setTenant("vision")
            .setState(JobState.RUNNING).setNumGpus(1).setUpdatedAt(Instant.EPOCH).build();

    @Test
    void shouldRefuseACancelSentAsAnotherTenantThanTheJobsWhenTenantsAreAuthenticatedByTopic() {
        assertThat(CancelCommand.otherTenant(visionsJob, true, "nlp")).hasValueSatisfying(reason -> assertThat(reason)
                .contains("refused", "job job-1 belongs to tenant 'vision'", "sent as tenant 'nlp'", "nothing sent"));
    }

    @Test
    void shouldLetTheJobsOwnTenantCancelAndLeaveTheRestToTheSchedulerWithoutTenantTopics() {
        assertThat(CancelCommand.otherTenant(visionsJob, true, "vision")).isEmpty();
        assertThat(CancelCommand.otherTenant(visionsJob, true, null)).as("sent as the job's tenant").isEmpty();
        assertThat(CancelCommand.otherTenant(visionsJob, false, "nlp")).as("tenants not authenticated").isEmpty();
    }
}
