package io.quanta.cli;

import io.quanta.cli.client.ClusterAccess;
import io.quanta.schemas.NodeAdmission;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.auth.NodeMac;
import io.quanta.topics.auth.NodeSecret;
import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Node admission for node authentication ({@code scheduler.node.secret.file}): {@code quanta nodes secret FILE} makes
 * the scheduler's node secret, {@code quanta nodes admit NODE} records the admission on
 * {@code quanta.nodes.admissions} and prints the node's key for its {@code node.auth.key}, {@code quanta nodes revoke
 * NODE} records a revocation. Admissions are records on a topic, so audit sees who was admitted when.
 */
final class NodeAdmissionCommands {

    private NodeAdmissionCommands() {
    }

    @Command(name = "secret", mixinStandardHelpOptions = true,
            description = {"Create the scheduler's node secret (64 hex digits, owner-only file).", "",
                    "Give it to the scheduler as scheduler.node.secret.file and keep it for 'quanta nodes admit'."})
    static final class Secret extends ClientCommand implements Callable<Integer> {

        @Parameters(paramLabel = "FILE", description = "Where to write it (refused if it exists).")
        Path file;

        @Override
        public Integer call() {
            if (Files.exists(file)) {
                err().println("refused: " + file + " exists (a new secret would invalidate every node's key)");
                return ExitCodes.REFUSED;
            }
            NodeSecret.generate().write(file);
            out().println("node secret written to " + file + "; set " + SchedulerConfigSection.NODE_SECRET_FILE + "="
                    + file.toAbsolutePath() + " for the scheduler and for 'quanta nodes admit'");
            out().flush();
            return ExitCodes.OK;
        }
    }

    /** Shared by admit and revoke: records the decision on the admissions topic. */
    abstract static class Decision extends ClientCommand implements Callable<Integer> {

        @Parameters(paramLabel = "NODE", description = "Node id.")
        String nodeId;

        @Option(names = "--by", paramLabel = "WHO", description = "Who decides (default: the user name).")
        String by;

        abstract boolean admitted();

        @Override
        public Integer call() throws InterruptedException {
            if (nodeId.isBlank() || nodeId.length() > 256) {
                err().println("invalid node id");
                return ExitCodes.USAGE;
            }
            QuantaConfig loaded = config.load();
            String secretFile = loaded.getString(SchedulerConfigSection.NODE_SECRET_FILE);
            if (admitted() && (secretFile == null || secretFile.isBlank())) {
                err().println("no node secret: set " + SchedulerConfigSection.NODE_SECRET_FILE + " (the scheduler's "
                        + "node secret; 'quanta nodes secret FILE' makes one)");
                return ExitCodes.USAGE;
            }
            client(); // the same 'no cluster configured' message as the other commands
            ClusterAccess access = ClusterAccess.of(loaded);
            NodeAdmission record = NodeAdmission.newBuilder().setNodeId(nodeId).setAdmitted(admitted())
                    .setAt(clock.instant()).setBy(by != null ? by : System.getProperty("user.name", "")).build();
            try (KafkaProducer<String, NodeAdmission> producer = access.producer(access.topics().admissions(),
                    "quanta-cli-nodes-" + (admitted() ? "admit" : "revoke"))) {
                producer.send(new ProducerRecord<>(access.topics().admissions().name(), nodeId, record))
                        .get(Duration.ofSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                err().println("cannot record the " + (admitted() ? "admission" : "revocation") + ": " + e);
                return ExitCodes.UNAVAILABLE;
            }
            if (admitted()) {
                String key = NodeMac.toHex(NodeSecret.read(Path.of(secretFile)).keyOf(nodeId));
                out().println("node " + nodeId + " admitted. Give it this key (keep it secret):");
                out().println("node.auth.key=" + key);
            } else {
                out().println("node " + nodeId + " revoked: its records no longer count");
            }
            out().flush();
            return ExitCodes.OK;
        }
    }

    @Command(name = "admit", mixinStandardHelpOptions = true,
            description = {"Admit a node (node authentication) and print its key for node.auth.key.", "",
                    "Needs scheduler.node.secret.file. Exit 0 admitted, 2 no secret configured, 69 unreachable."})
    static final class Admit extends Decision {
        @Override
        boolean admitted() {
            return true;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Revoke a node's admission: its heartbeats, events and telemetry stop counting.")
    static final class Revoke extends Decision {
        @Override
        boolean admitted() {
            return false;
        }
    }
}
