package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobState;
import io.quanta.streams.testing.Records;
import io.quanta.streams.testing.SchedulerDriver;
import java.time.Instant;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tenant identity from the topic a request arrives on (scheduler.tenant.topics): the tenant field cannot claim
 * another tenant, a tenant cannot cancel another's job, the shared topic is refused.
 */
class TenantAuthTest {

    private final SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy("fifo")
            .withSafeguards(SchedulerSettings.defaults().safeguards().withTenantTopics(true)),
            StoreOptions.inMemory());

    @AfterEach
    void close() {
        driver.close();
    }

    private void send(String topic, String key, JobRequest request, Instant at) {
        driver.clockAt(at);
        driver.driver().createInputTopic(topic, new StringSerializer(),
                driver.topics().submissions().valueSerde().serializer()).pipeInput(key, request, at);
    }

    private String topicOf(String tenant) {
        return driver.topics().submissions().name() + "." + tenant;
    }

    @Test
    void shouldTakeTheTenantFromTheTopicAndRejectASubmissionClaimingAnother() {
        send(topicOf("vision"), "j1", Records.request(job("j1", 1).setTenant("").build()), at(1));
        send(topicOf("vision"), "j2", Records.request(job("j2", 1).setTenant("nlp").build()), at(2));

        assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.QUEUED);
        assertThat(driver.lastStatus("j1").getTenant()).isEqualTo("vision");
        assertThat(driver.lastStatus("j2").getState()).isEqualTo(JobState.REJECTED);
        assertThat(driver.lastStatus("j2").getReason()).contains("tenant 'nlp' in the submission is not the "
                + "authenticated tenant 'vision'");
    }

    @Test
    void shouldRefuseACancelOfAnotherTenantsJobAndLeaveTheJobAlone() {
        send(topicOf("vision"), "j1", Records.request(job("j1", 1).setTenant("vision").build()), at(1));

        send(topicOf("nlp"), "j1", Records.cancel("j1"), at(2));

        assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.QUEUED);
        assertThat(driver.deadLetters()).extracting(DeadLetter::getReason)
                .anySatisfy(r -> assertThat(r).contains("tenant 'nlp' may not cancel job j1 of tenant 'vision'"));

        send(topicOf("vision"), "j1", Records.cancel("j1"), at(3));

        assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void shouldDeadLetterRequestsOnTheSharedTopicWhichAnyoneCouldForge() {
        send(driver.topics().submissions().name(), "j1", Records.request(job("j1", 1).setTenant("vision").build()),
                at(1));

        assertThat(driver.lastStatus("j1")).isNull();
        assertThat(driver.deadLetters()).singleElement().extracting(DeadLetter::getReason).asString()
                .contains("tenants are authenticated by topic");
    }
}
