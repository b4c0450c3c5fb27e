package io.quanta.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.streams.testing.SchedulerDriver;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/** Pins the names a rename must not change silently: processors, stores, sub-topologies and changelog topics. */
class TopologyDescriptionTest {

    private static final TopicCatalogue TOPICS = TopicCatalogue.from(QuantaConfig.of(Map.of()),
            new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true));

    private static TopologyDescription describe() {
        return SchedulerTopology.build(TOPICS, SchedulerSettings.defaults(), StoreOptions.persistent()).describe();
    }

    @Test
    void shouldPinProcessorsAndTheirStores() {
        Map<String, Set<String>> stores = describe().subtopologies().stream()
                .flatMap(s -> s.nodes().stream())
                .filter(n -> n instanceof TopologyDescription.Processor)
                .collect(Collectors.toMap(TopologyDescription.Node::name,
                        n -> new TreeSet<>(((TopologyDescription.Processor) n).stores())));

        assertThat(stores).containsExactlyInAnyOrderEntriesOf(Map.of(
                "submission-router", Set.of("router-job-routes"),
                "telemetry-router", Set.of("router-job-routes"),
                "event-router", Set.of("router-job-routes"),
                "heartbeat-router", Set.of("router-node-cells"),
                "cell-scheduler", Set.of("scheduler-jobs", "scheduler-finished-jobs", "scheduler-finished-index",
                        "scheduler-nodes", "scheduler-assignments", "scheduler-service-distribution",
                        "scheduler-interference", "scheduler-cell-meta")));
    }

    @Test
    void shouldPinSubTopologiesWithTheirSourcesAndSinks() {
        Set<String> shapes = describe().subtopologies().stream()
                .map(s -> s.nodes().stream().map(TopologyDescription.Node::name).sorted()
                        .collect(Collectors.joining(",")))
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(shapes).containsExactlyInAnyOrder(
                "cell-commands-sink,cell-deadletter-sink,cell-decisions-sink,cell-scheduler,cell-status-sink,"
                        + "inbox-source",
                "event-router,events-source,job-router-deadletter-sink,job-router-inbox-sink,"
                        + "job-router-status-sink,submission-router,submissions-source,telemetry-router,"
                        + "telemetry-source",
                "heartbeat-router,heartbeats-source,node-router-deadletter-sink,node-router-inbox-sink");
    }

    @Test
    void shouldPinChangelogTopicsOfEveryStore() {
        try (SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy("fifo"),
                StoreOptions.inMemory())) {
            driver.heartbeat(io.quanta.streams.testing.Records.node("n1", SchedulerDriver.CELL, 1, 1,
                    io.quanta.streams.testing.Records.at(0)).build());
            driver.submit(io.quanta.streams.testing.Records.job("j1", 1).build(),
                    io.quanta.streams.testing.Records.at(1));
            driver.event(io.quanta.streams.testing.Records.event("j1", 1, "n1",
                    io.quanta.schemas.JobEventType.COMPLETED, io.quanta.streams.testing.Records.at(2)));

            Set<String> changelogs = driver.driver().producedTopicNames().stream()
                    .filter(t -> t.endsWith("-changelog")).collect(Collectors.toCollection(TreeSet::new));

            assertThat(changelogs).containsExactly(
                    "quanta-scheduler-router-job-routes-changelog",
                    "quanta-scheduler-router-node-cells-changelog",
                    "quanta-scheduler-scheduler-assignments-changelog",
                    "quanta-scheduler-scheduler-cell-meta-changelog",
                    "quanta-scheduler-scheduler-finished-index-changelog",
                    "quanta-scheduler-scheduler-finished-jobs-changelog",
                    "quanta-scheduler-scheduler-interference-changelog",
                    "quanta-scheduler-scheduler-jobs-changelog",
                    "quanta-scheduler-scheduler-nodes-changelog",
                    "quanta-scheduler-scheduler-service-distribution-changelog");
            assertThat(changelogs).contains(SchedulerTopology.changelogTopic("quanta-scheduler",
                    SchedulerTopology.JOBS_STORE));
        }
    }
}
