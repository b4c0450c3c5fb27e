package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.node.testing.Commands;
import io.quanta.node.testing.Jobs;
import io.quanta.schemas.NodeCommand;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.admin.TopicsApply;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The command loop on a real broker and registry: a command whose handling throws an exception is skipped with an
 * error (the scheduler's attempt timeouts requeue what it never answered), and the loop reads on; an {@link Error}
 * ends the loop and reaches its failure callback (the node connector's {@code commandLoopFailed}: fence the attempts,
 * stop heartbeating, stop, exit 1), instead of leaving a connector that heartbeats but hears nothing.
 */
@ExtendWith(KafkaStackExtension.class)
class CommandLoopIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 3;

    @Test
    void shouldEndTheLoopAndReportTheErrorWhenHandlingACommandThrowsAnError(KafkaStack stack) throws Exception {
        // e.g. a jar replaced under the running connector: NoClassDefFoundError while handling a START
        try (Run run = new Run(stack, command -> {
            throw new NoClassDefFoundError("io/quanta/node/runner/Gone");
        })) {
            NodeCommand start = run.send("loop-job");

            Await.until("the failure reported", WAIT, () -> !run.failures.isEmpty());
            run.thread.join(WAIT.toMillis());

            assertThat(run.handled).containsExactly(start.getCommandId());
            assertThat(run.failures).hasSize(1);
            assertThat(run.failures.getFirst()).isInstanceOf(NoClassDefFoundError.class);
            assertThat(run.thread.isAlive()).as("the loop ended; it does not read on past a failure").isFalse();
        }
    }

    @Test
    void shouldSkipACommandWhoseHandlingFailsWithAnExceptionAndHandleTheNext(KafkaStack stack) throws Exception {
        try (Run run = new Run(stack, command -> {
            if (command.getJobId().equals("bad-job")) {
                throw new IllegalStateException("this command cannot be handled");
            }
        })) {
            NodeCommand bad = run.send("bad-job");
            NodeCommand good = run.send("good-job");

            Await.until("the next command handled", WAIT, () -> run.handled.contains(good.getCommandId()));

            assertThat(run.handled).containsExactly(bad.getCommandId(), good.getCommandId());
            assertThat(run.failures).as("one command's exception is logged, the loop goes on").isEmpty();
            assertThat(run.thread.isAlive()).isTrue();
        }
    }

    /** A command loop of a fresh node on fresh topics, on its own thread, with a handler that records each command. */
    private static final class Run implements AutoCloseable {

        final String nodeId = "loop-node-" + UUID.randomUUID().toString().substring(0, 8);
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final List<String> handled = new CopyOnWriteArrayList<>();
        final Thread thread;
        private final CommandLoop loop;
        private final TopicCatalogue catalogue;
        private final KafkaProducer<String, NodeCommand> producer;

        Run(KafkaStack stack, java.util.function.Consumer<NodeCommand> handler) throws Exception {
            Map<String, String> values = new HashMap<>();
            String prefix = "loopit" + UUID.randomUUID().toString().substring(0, 8) + ".";
            for (QuantaTopic topic : QuantaTopic.values()) {
                values.put(topic.nameKey(), prefix + topic.defaultName());
            }
            values.put(QuantaTopic.COMMANDS.partitionsKey(), Integer.toString(PARTITIONS));
            values.put("bootstrap.servers", stack.bootstrapServers());
            values.put("schema.registry.url", stack.registryUrl());
            values.put(NodeConfigSection.ID, nodeId);
            values.put(NodeConfigSection.CELL, "cell-a");
            QuantaConfig config = QuantaConfig.of(values);
            catalogue = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()))) {
                new TopicsApply(admin, Duration.ofSeconds(30)).apply(catalogue.all());
            }
            AtomicBoolean ready = new AtomicBoolean();
            loop = new CommandLoop(nodeId, NodeClients.commandConsumer(config, nodeId), catalogue.commands(),
                    command -> {
                        handled.add(command.getCommandId());
                        handler.accept(command);
                    }, () -> ready.set(true), failures::add);
            thread = new Thread(loop, "command-loop-it");
            thread.start();
            producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()),
                    new StringSerializer(), catalogue.commands().valueSerde().serializer());
            Await.until("the loop has its partition", WAIT, ready::get);
        }

        NodeCommand send(String jobId) throws Exception {
            NodeCommand start = Commands.start(nodeId, 1, jobId, 1, Jobs.example("--steps", "1")).build();
            producer.send(new ProducerRecord<>(catalogue.commands().name(), NodePartition.of(nodeId, PARTITIONS),
                    nodeId, start)).get();
            return start;
        }

        @Override
        public void close() {
            loop.stop();
            producer.close();
        }
    }
}
