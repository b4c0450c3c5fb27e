package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.cli.ExitCodes;
import io.quanta.cli.local.LocalPart;
import io.quanta.cli.local.LocalRun;
import io.quanta.embedded.Await;
import io.quanta.node.NodeSettings;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quanta local --only broker,registry}: the broker, the registry, the topics and the schemas, without the
 * built-in scheduler and nodes. No scheduler group joins and no node beats while only the infrastructure runs, yet a
 * job can be submitted; the scheduler and node commands it prints, run as separate processes, then schedule that job
 * to the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalInfrastructureOnlyIT {

    private static final Duration START = Duration.ofMinutes(4);

    private Path temp;
    private Path clientProperties;
    private final StringWriter output = new StringWriter();
    private LocalRun run;
    private CompletableFuture<Integer> session;
    private final List<Process> processes = new ArrayList<>();

    @BeforeAll
    void startInfrastructure(@TempDir Path temp) {
        this.temp = temp;
        Path dataDir = temp.resolve("data");
        clientProperties = dataDir.resolve("client.properties");
        run = new LocalRun(new LocalRun.Request(dataDir, false, false, new ClusterShape(1, 1, 4),
                NodeSettings.Backend.SIMULATED, "V100", Optional.empty(), 0, 1, 600, false, false,
                Duration.ofMinutes(3), 0, 0, Duration.ofMillis(500), Optional.empty(), QuantaConfig.of(Map.of()),
                EnumSet.of(LocalPart.BROKER, LocalPart.REGISTRY)), new PrintWriter(output, true),
                new PrintWriter(output, true), Clock.systemUTC());
        // on its own thread: with 2 cores the common pool has one thread, which the JDK's WebSocket client needs
        session = CompletableFuture.supplyAsync(() -> {
            try {
                return run.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitCodes.INTERRUPTED;
            }
        }, r -> new Thread(r, "quanta-local-session").start());
        Await.until("quanta local --only broker,registry is ready", START,
                () -> output.toString().contains("ready in") || session.isDone());
        assertThat(output.toString()).as("quanta local output").contains("ready in");
    }

    @AfterAll
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        if (run != null) {
            run.stop();
            session.get(2, TimeUnit.MINUTES);
        }
    }

    @Test
    @Order(1)
    void shouldRunNoSchedulerAndNoNodesButTakeSubmissionsWhenOnlyTheInfrastructureIsAsked() throws Exception {
        String text = output.toString();
        assertThat(text).contains("kafka bootstrap servers  127.0.0.1:", "schema registry          http://",
                "status API               not started (--only broker,registry)",
                "nodes                    not started (--only broker,registry)",
                "Started only broker,registry (topics and schemas applied)").doesNotContain("  dashboard ");
        assertThat(clientProperties).isRegularFile();

        // before anything of ours wrote a record: a producer that only looks schemas up, as foreign clients do
        String registry = properties().getProperty("schema.registry.url");
        ForeignProducer.submit(bootstrap(), registry, "quanta.jobs.submissions", "foreign-1", 1, "t");

        LocalClusterIT.Cli apply = cli("topics", "apply");
        assertThat(apply.code).as("topics and schemas already applied: " + apply.out + apply.err).isZero();
        LocalClusterIT.Cli submit = cli("submit", "--id", "infra-1", "--gpus", "2", "--tenant", "t", "--model",
                "resnet50", "--duration", "60", "--no-wait");
        assertThat(submit.code).as(submit.err.toString()).isZero();

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            Set<String> groups = admin.listGroups().all().get(30, TimeUnit.SECONDS).stream()
                    .map(GroupListing::groupId).collect(Collectors.toSet());
            assertThat(groups).as("consumer groups").doesNotContain(QuantaConfig.of(Map.of())
                    .getString(SchedulerConfigSection.APPLICATION_ID));
            List<TopicPartition> heartbeats = admin.describeTopics(List.of("quanta.nodes.heartbeats")).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get("quanta.nodes.heartbeats").partitions().stream()
                    .map(p -> new TopicPartition("quanta.nodes.heartbeats", p.partition())).toList();
            long beats = admin.listOffsets(heartbeats.stream().collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest())))
                    .all().get(30, TimeUnit.SECONDS).values().stream().mapToLong(o -> o.offset()).sum();
            assertThat(beats).as("heartbeats: no node runs").isZero();
        }
        LocalClusterIT.Cli status = cli("status", "infra-1");
        assertThat(status.code).as("no scheduler has seen the job: " + status.out).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    @Order(2)
    void shouldScheduleTheWaitingJobWhenThePrintedCommandsRunAsSeparateProcesses() throws Exception {
        String text = output.toString();
        List<String> commands = text.lines().map(String::trim).filter(l -> l.startsWith("bin/quanta scheduler ")
                || l.startsWith("bin/quanta node ")).toList();
        assertThat(commands).hasSize(2);

        processes.add(start(commands.get(0), "scheduler", "--status-port", "0", "--policy", "fifo"));
        processes.add(start(commands.get(1), "node", "--speed", "600", "--set", "node.heartbeat.interval.ms=1000"));
        LocalClusterIT.Cli watch = cli("watch", "infra-1", "--timeout", "180", "--not-found-after", "120");

        assertThat(watch.code).as(watch.out + " " + watch.err + logs()).isZero();
        assertThat(watch.out.toString()).contains("infra-1", "FINISHED");
        LocalClusterIT.Cli foreign = cli("watch", "foreign-1", "--timeout", "180", "--not-found-after", "120");
        assertThat(foreign.code).as("the producer-only submission: " + foreign.out + " " + foreign.err + logs())
                .isZero();
        assertThat(foreign.out.toString()).contains("foreign-1", "FINISHED");
        assertThat(processes).allMatch(Process::isAlive);
        String schedulerLog = Files.readString(temp.resolve("scheduler.log"));
        String page = schedulerLog.substring(schedulerLog.indexOf(", dashboard ") + 12).split(",")[0];
        java.net.http.HttpResponse<String> dashboard = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(page)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(dashboard.statusCode()).as("the separate scheduler's dashboard at " + page).isEqualTo(200);
        assertThat(dashboard.body()).contains("<title>Quanta dashboard</title>");
    }

    /** Runs a printed {@code bin/quanta ...} line in its own JVM (this test's class path), with extra arguments. */
    private Process start(String printed, String name, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), "io.quanta.cli.QuantaMain"));
        command.addAll(Arrays.asList(printed.substring("bin/quanta ".length()).split(" ")));
        command.addAll(List.of(extra));
        Path log = temp.resolve(name + ".log");
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private String logs() {
        StringBuilder out = new StringBuilder();
        for (String name : List.of("scheduler", "node")) {
            try {
                out.append("\n--- ").append(name).append(" log:\n").append(Files.readString(temp.resolve(name + ".log")));
            } catch (IOException e) {
                out.append("\n--- no ").append(name).append(" log");
            }
        }
        return out.toString();
    }

    private java.util.Properties properties() throws IOException {
        java.util.Properties p = new java.util.Properties();
        try (java.io.Reader in = Files.newBufferedReader(clientProperties)) {
            p.load(in);
        }
        return p;
    }

    private String bootstrap() {
        String text = output.toString();
        return text.substring(text.indexOf("kafka bootstrap servers") + 23).lines().findFirst().orElseThrow().trim();
    }

    private LocalClusterIT.Cli cli(String... args) {
        LocalClusterIT.Cli cli = new LocalClusterIT.Cli();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-c", clientProperties.toString()));
        cli.code = cli.line.execute(all.toArray(String[]::new));
        return cli;
    }
}
