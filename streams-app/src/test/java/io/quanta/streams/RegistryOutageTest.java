package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.schemas.JobState;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.testing.SchedulerDriver;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.registry.RegisteredSchema;
import io.quanta.topics.registry.SchemaRegistryClient;
import io.quanta.topics.registry.SchemaRegistryException;
import io.quanta.topics.serde.RegistryUnavailableException;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * A registry outage is not the record's fault: a record whose writer schema the scheduler cannot fetch because the
 * registry does not answer fails the stream thread (Kafka Streams replaces it, and the new thread reads the
 * uncommitted record again), is never dead-lettered, and is scheduled once the registry answers.
 */
class RegistryOutageTest {

    @Test
    void shouldNotDeadLetterASubmissionWhoseSchemaCannotBeFetchedAndScheduleItOnceTheRegistryAnswers() {
        OutageRegistry registry = new OutageRegistry();
        try (SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy("fifo"),
                StoreOptions.inMemory(), registry)) {
            driver.heartbeat(node("n1", SchedulerDriver.CELL, 2, 1, at(0)).build());
            JobSubmitted j1 = job("j1", 1).build();
            registry.down = true;

            // the first read of a submission needs its writer schema from the registry, which does not answer
            assertThatThrownBy(() -> driver.submit(j1, at(1)))
                    .satisfies(e -> assertThat(RegistryUnavailableException.isCause(e)).as("%s", e).isTrue());
            assertThat(driver.deadLetters()).isEmpty();
            assertThat(driver.lastStatus("j1")).isNull();

            registry.down = false;
            driver.submit(j1, at(1));

            assertThat(driver.deadLetters()).isEmpty();
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.STARTING);
            assertThat(driver.commands()).singleElement().satisfies(c -> {
                assertThat(c.getJobId()).isEqualTo("j1");
                assertThat(c.getType()).isEqualTo(NodeCommandType.START);
            });
        }
    }

    /** An in-memory registry whose schema lookups fail as an unreachable registry's do (HTTP 503) while down. */
    private static final class OutageRegistry implements SchemaRegistryClient {
        private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
        private volatile boolean down;

        @Override
        public int register(String subject, Schema schema) {
            return registry.register(subject, schema);
        }

        @Override
        public int idOf(String subject, Schema schema) {
            return registry.idOf(subject, schema);
        }

        @Override
        public Schema schemaById(int id) {
            if (down) {
                throw new SchemaRegistryException("fetch schema id " + id, null, 503, 503, "Service Unavailable",
                        null);
            }
            return registry.schemaById(id);
        }

        @Override
        public RegisteredSchema latest(String subject) {
            return registry.latest(subject);
        }

        @Override
        public boolean isCompatible(String subject, Schema schema) {
            return registry.isCompatible(subject, schema);
        }
    }
}
