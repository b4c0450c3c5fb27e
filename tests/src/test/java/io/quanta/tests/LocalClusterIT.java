package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quanta.cli.ExitCodes;
import io.quanta.cli.QuantaMain;
import io.quanta.cli.local.LocalRun;
import io.quanta.embedded.Await;
import io.quanta.node.NodeSettings;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code quanta local} end to end on this machine: the whole cluster in the test JVM (embedded broker, Apicurio
 * child process, scheduler, two simulated nodes) plays a small trace at 600x and writes its report; the user CLI
 * submits, watches, cancels and lists against it; a stop leaves no process behind and a restart resumes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalClusterIT {

    private static final Duration START = Duration.ofMinutes(4);

    private Path dataDir;
    private Path clientProperties;
    private final StringWriter output = new StringWriter();
    private LocalRun run;
    private CompletableFuture<Integer> session;

    /** Twelve jobs of 1 to 4 GPUs over two minutes of trace time, 5 to 30 minutes long: some must queue on 8 GPUs. */
    static String trace() {
        StringBuilder csv = new StringBuilder("job_id,submit_time_s,num_gpus,duration_s,status,user,virtual_cluster\n");
        int[] gpus = {1, 2, 4, 1, 2, 4, 1, 1, 2, 4, 2, 1};
        for (int i = 0; i < gpus.length; i++) {
            csv.append(String.format("t-%02d,%d,%d,%d,UNKNOWN,,vc-%s%n", i, i * 10, gpus[i], 300 + 150 * i,
                    i % 2 == 0 ? "a" : "b"));
        }
        return csv.toString();
    }

    private java.util.Set<Long> registriesBefore;

    @BeforeAll
    void startLocalCluster(@TempDir Path temp) throws IOException {
        // a registry this JVM already runs (the stack of other tests in this module) is not quanta local's
        registriesBefore = registries().stream().map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
        dataDir = temp.resolve("data");
        clientProperties = dataDir.resolve("client.properties");
        Path workload = Files.writeString(temp.resolve("small.csv"), trace());
        run = new LocalRun(request(Optional.of(workload), false), new PrintWriter(output, true),
                new PrintWriter(output, true), Clock.systemUTC());
        session = CompletableFuture.supplyAsync(() -> {
            try {
                return run.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitCodes.INTERRUPTED;
            }
        });
        Await.until("quanta local is ready", START, () -> output.toString().contains("ready in")
                || session.isDone());
        assertThat(output.toString()).as("quanta local output").contains("ready in");
    }

    private LocalRun.Request request(Optional<Path> workload, boolean stopWhenReady) {
        return new LocalRun.Request(dataDir, false, false, new ClusterShape(1, 2, 4), NodeSettings.Backend.SIMULATED,
                "V100", workload, 0, 1, 600, false, stopWhenReady, Duration.ofMinutes(3), 0, 0,
                Duration.ofMillis(500), Optional.empty(), QuantaConfig.of(Map.of("scheduler.policy", "quanta")));
    }

    @AfterAll
    void stop() throws Exception {
        if (run != null) {
            run.stop();
            session.get(2, TimeUnit.MINUTES);
        }
    }

    private Cli cli(String... args) {
        Cli cli = new Cli();
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("-c", clientProperties.toString()));
        cli.code = cli.line.execute(all.toArray(String[]::new));
        return cli;
    }

    /** One in-process {@code quanta} invocation with its output. */
    static final class Cli {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine line = QuantaMain.commandLine();
        int code;

        Cli() {
            line.setOut(new PrintWriter(out, true));
            line.setErr(new PrintWriter(err, true));
        }
    }

    @Test
    @Order(1)
    void shouldPrintAddressesAndHowToUseThemWhenReady() {
        assertThat(output.toString()).contains("kafka bootstrap servers  127.0.0.1:", "schema registry          http://",
                "status API               http://127.0.0.1:", "From another terminal", "2 x 4 GPUs");
        assertThat(clientProperties).isRegularFile();
    }

    @Test
    @Order(2)
    void shouldServeSchedulerNodeAndKafkaStreamsMetricsWhenRunning() throws Exception {
        String text = output.toString();
        String url = text.substring(text.indexOf("metrics                  ") + 25).lines().findFirst().orElseThrow()
                .trim();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        Await.until("decisions counted by the metrics", Duration.ofMinutes(2), () -> scrape(http, url)
                .contains("quanta_scheduler_decisions_total{type=\"START\"}"));

        // the scheduler's own sensor appears once Micrometer's Kafka binder picks up metrics created after start
        Await.until("the scheduling-pass metric", Duration.ofMinutes(2), () -> scrape(http, url)
                .contains("kafka_stream_quanta_cell_scheduler_scheduling_pass_latency_avg"));
        Await.until("the dropped-telemetry metric", Duration.ofMinutes(2), () -> scrape(http, url)
                .contains("kafka_stream_quanta_cell_scheduler_dropped_telemetry_total"));

        String metrics = scrape(http, url);
        assertThat(metrics).contains("quanta_jobs{state=\"QUEUED\"}", "quanta_gpus{state=\"busy\"}",
                "quanta_queue_length{level=\"0\"}", "quanta_job_completion_seconds_bucket",
                "quanta_node_gpus{cell=\"cell-0\",node=\"r00-s000\",state=\"free\"}", "quanta_deadletters_total",
                "kafka_stream_", "jvm_memory_used_bytes");
        assertThat(metrics).containsPattern("kafka_consumer_fetch_manager_records_lag(_max)?\\{");
    }

    /** The body of a GET of {@code url}, or "" when it cannot be fetched (yet). */
    static String scrape(java.net.http.HttpClient http, String url) {
        try {
            return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    @Test
    @Order(3)
    void shouldFinishEveryJobAndWriteReportWhenWorkloadPlays() throws IOException {
        Await.until("the workload ends and its report is written", Duration.ofMinutes(4),
                () -> output.toString().contains("report: "));

        String text = output.toString();
        assertThat(text).contains("jobs:                  12 (finished 12, unfinished 0)", "outcome:               all jobs ended");
        Path report = Path.of(text.substring(text.indexOf("report: ") + 8).lines().findFirst().orElseThrow().trim());
        assertThat(report).isRegularFile();
        List<String> jobs = Files.readAllLines(report.resolveSibling("jobs.csv"));
        assertThat(jobs).hasSize(13);
        List<String> columns = List.of(jobs.get(0).split(","));
        int state = columns.indexOf("final_state");
        int running = columns.indexOf("running_s");
        assertThat(jobs.subList(1, 13)).allSatisfy(line -> {
            String[] cells = line.split(",", -1);
            assertThat(cells[0]).startsWith("w1-t-");
            assertThat(cells[state]).isEqualTo("FINISHED");
            // a live cluster's workload is read from statuses, which do not say how long a job held GPUs
            assertThat(cells[running]).as("running_s of " + cells[0]).isEmpty();
        });
        HtmlReportCheck.assertRenders(report);
    }

    @Test
    @Order(4)
    void shouldSubmitWatchAndShowJobWhenUserUsesCli() {
        Cli submit = cli("submit", "--gpus", "2", "--tenant", "vision", "--model", "resnet50", "--duration", "1200");
        assertThat(submit.code).as(submit.err.toString()).isZero();
        String id = submit.out.toString().trim();
        assertThat(id).startsWith("job-");

        Cli watch = cli("watch", id, "--timeout", "120");
        assertThat(watch.code).as(watch.err.toString()).isZero();
        assertThat(watch.out.toString()).contains(id, "FINISHED");

        Cli status = cli("status", id);
        assertThat(status.code).isZero();
        assertThat(status.out.toString()).contains("State:            FINISHED", "Tenant:           vision");

        Cli all = cli("status", "--json");
        assertThat(all.out.toString()).contains("\"jobId\" : \"" + id + "\"");
    }

    @Test
    @Order(5)
    void shouldCancelRunningJobWhenUserCancels() {
        Cli submit = cli("submit", "--gpus", "1", "--tenant", "nlp", "--model", "transformer", "--duration",
                "10000000");
        String id = submit.out.toString().trim();
        Await.until("job " + id + " runs", Duration.ofMinutes(1),
                () -> cli("status", id).out.toString().contains("State:            RUNNING"));

        Cli cancel = cli("cancel", id, "--wait", "--reason", "test");
        assertThat(cancel.code).as(cancel.out + " " + cancel.err).isZero();
        assertThat(cancel.out.toString()).contains("cancel requested for " + id, id + " CANCELLED");

        Cli again = cli("cancel", id);
        assertThat(again.code).isEqualTo(ExitCodes.REFUSED);
        assertThat(again.err.toString()).contains("already ended (CANCELLED)");
    }

    /**
     * A job submitted from Python with Confluent's client ({@code sdk/python/examples/submit_job.py}, librdkafka's
     * partitioner, the schema the registry holds) runs like any other. Needs Debian's {@code /usr/bin/python3} with
     * {@code confluent_kafka}; skipped with a notice without it.
     */
    @Test
    @Order(4)
    void shouldRunAJobSubmittedFromPythonWithConfluentsClient() throws Exception {
        Path python = Path.of("/usr/bin/python3");
        boolean confluent = Files.isExecutable(python) && new ProcessBuilder(python.toString(), "-c",
                "import confluent_kafka.schema_registry").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        if (!confluent) {
            System.out.println("LocalClusterIT: Python submission skipped: /usr/bin/python3 cannot import "
                    + "confluent_kafka (apt-get install -y python3-confluent-kafka python3-requests python3-avro)");
        }
        assumeTrue(confluent, "no confluent_kafka for /usr/bin/python3");
        Path example = Path.of("..", "sdk", "python", "examples", "submit_job.py").toAbsolutePath().normalize();
        Process submit = new ProcessBuilder(python.toString(), example.toString(), "--config",
                clientProperties.toString(), "--job-id", "py-1", "--gpus", "2", "--tenant", "python", "--model",
                "transformer", "--duration", "600").redirectErrorStream(true).start();
        String printed = new String(submit.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(submit.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(submit.exitValue()).as(printed).isZero();
        assertThat(printed.trim()).isEqualTo("py-1");

        Cli watch = cli("watch", "py-1", "--timeout", "120");
        assertThat(watch.code).as(watch.out + " " + watch.err).isZero();
        Cli status = cli("status", "py-1");
        assertThat(status.out.toString()).contains("State:            FINISHED", "Tenant:           python",
                "GPUs:             2");
    }

    /** Each exit code the user commands give, against the running cluster, and how fast the failures come. */
    @Test
    @Order(4)
    void shouldTellEachOutcomeByItsOwnExitCode() {
        Cli accepted = cli("submit", "--id", "exit-ok", "--gpus", "1", "--tenant", "t", "--duration", "60");
        assertThat(accepted.code).as(accepted.err.toString()).isEqualTo(ExitCodes.OK);

        Cli duplicate = cli("submit", "--id", "exit-ok", "--gpus", "1", "--tenant", "t", "--duration", "60");
        assertThat(duplicate.code).isEqualTo(ExitCodes.REFUSED);
        assertThat(duplicate.err.toString()).contains("job id exit-ok is already used");

        Cli tooBig = cli("submit", "--id", "exit-big", "--gpus", "64", "--tenant", "t", "--duration", "60");
        assertThat(tooBig.code).as(tooBig.out + " " + tooBig.err).isEqualTo(ExitCodes.REFUSED);
        assertThat(tooBig.err.toString()).contains("job exit-big rejected");

        Cli invalid = cli("submit", "--gpus", "0", "--tenant", "t");
        assertThat(invalid.code).isEqualTo(ExitCodes.USAGE);

        Cli longJob = cli("submit", "--id", "exit-long", "--gpus", "1", "--tenant", "t", "--duration", "10000000");
        assertThat(longJob.code).as(longJob.err.toString()).isEqualTo(ExitCodes.OK);
        Cli notInTime = cli("watch", "exit-long", "--timeout", "1");
        assertThat(notInTime.code).as("watch of a job that does not end in time: " + notInTime.out + notInTime.err)
                .isEqualTo(ExitCodes.FAILURE);
        assertThat(notInTime.err.toString()).contains("exit-long", "after 1 s");
        Cli cancelled = cli("cancel", "exit-long", "--wait");
        assertThat(cancelled.code).as(cancelled.out + " " + cancelled.err).isEqualTo(ExitCodes.OK);
        Cli watchCancelled = cli("watch", "exit-long", "--timeout", "30");
        assertThat(watchCancelled.code).as("watch of a job that ended CANCELLED: " + watchCancelled.out)
                .isEqualTo(ExitCodes.FAILURE);
        assertThat(watchCancelled.out.toString()).contains("CANCELLED");

        long start = System.nanoTime();
        Cli cancelUnknown = cli("cancel", "no-such-job");
        Cli watchUnknown = cli("watch", "no-such-job", "--not-found-after", "2");
        Duration both = Duration.ofNanos(System.nanoTime() - start);
        assertThat(cancelUnknown.code).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(cancelUnknown.err.toString()).contains("job no-such-job not found");
        assertThat(watchUnknown.code).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(both).as("two not-found answers").isLessThan(Duration.ofSeconds(30));

        Cli badId = cli("cancel", "bad id/../x");
        assertThat(badId.code).isEqualTo(ExitCodes.USAGE);
        assertThat(badId.err.toString()).contains("is not a job id");

        Cli unreachable = new Cli();
        unreachable.code = unreachable.line.execute("status", "x", "--bootstrap", "127.0.0.1:1", "--registry",
                "http://127.0.0.1:1");
        assertThat(unreachable.code).as(unreachable.err.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
    }

    @Test
    @Order(6)
    void shouldListNodesAndQueueWhenAsked() throws Exception {
        // records no Quanta client wrote, among the heartbeats the command reads: skipped, with one summary line
        java.util.Properties client = new java.util.Properties();
        try (java.io.Reader in = Files.newBufferedReader(clientProperties)) {
            client.load(in);
        }
        try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> producer =
                     new org.apache.kafka.clients.producer.KafkaProducer<>(Map.of("bootstrap.servers",
                             client.getProperty("bootstrap.servers")),
                             new org.apache.kafka.common.serialization.ByteArraySerializer(),
                             new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (int i = 0; i < 3; i++) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("quanta.nodes.heartbeats",
                        ("garbage-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        new byte[] {0x7f, 1, 2, 3, (byte) i})).get(30, TimeUnit.SECONDS);
            }
        }
        Cli nodes = cli("nodes");
        assertThat(nodes.code).as(nodes.err.toString()).isZero();
        assertThat(nodes.out.toString()).contains("r00-s000", "r00-s001", "Ready", "2 nodes, 8 GPUs");
        assertThat(nodes.err.toString().lines().toList()).as("stderr of quanta nodes").hasSize(1)
                .first().asString().contains("skipped 3 unreadable records");

        Cli queue = cli("queue");
        assertThat(queue.code).isZero();
        assertThat(queue.out.toString()).contains("No jobs waiting.");

        Cli missing = cli("status", "no-such-job");
        assertThat(missing.code).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.err.toString()).contains("job no-such-job not found");
    }

    @Test
    @Order(7)
    void shouldLeaveNoProcessBehindAndResumeWhenRestarted() throws Exception {
        run.stop();
        assertThat(session.get(2, TimeUnit.MINUTES)).isZero();
        run = null;
        assertThat(output.toString()).contains("stopped; state kept in");
        assertThat(liveChildren()).as("processes left by quanta local").isEmpty();

        StringWriter again = new StringWriter();
        int code = new LocalRun(request(Optional.empty(), true), new PrintWriter(again, true),
                new PrintWriter(again, true), Clock.systemUTC()).run();

        assertThat(code).isZero();
        assertThat(again.toString()).contains("(resuming)", "ready in");
        assertThat(liveChildren()).isEmpty();
    }

    /** The registry processes of this JVM that quanta local started (and left alive). */
    private List<ProcessHandle> liveChildren() {
        return registries().stream().filter(p -> !registriesBefore.contains(p.pid())).toList();
    }

    private static List<ProcessHandle> registries() {
        try (Stream<ProcessHandle> children = ProcessHandle.current().descendants()) {
            return children.filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().commandLine().orElse("").contains("quarkus")).toList();
        }
    }
}
