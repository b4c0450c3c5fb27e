package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.cli.ExitCodes;
import io.quanta.cli.client.ClusterAccess;
import io.quanta.cli.client.ModelProfiles;
import io.quanta.cli.client.TopicReader;
import io.quanta.cli.local.LocalPart;
import io.quanta.cli.local.LocalRun;
import io.quanta.embedded.Await;
import io.quanta.node.NodeSettings;
import io.quanta.schemas.JobCancelRequested;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.streams.testing.Records;
import io.quanta.topics.auth.NodeMac;
import io.quanta.topics.auth.NodeSecret;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quanta local --secure} end to end: the embedded broker takes SASL_SSL only (SCRAM-SHA-512 over TLS) with the
 * standard authorizer on and the roles' ACLs applied; the scheduler, two simulated connectors and the CLI each run as
 * their own user, by configuration alone, and schedule, run and cancel jobs. The broker refuses what the roles do not
 * allow: a tenant writing commands, a node writing submissions, and so a START from anyone but the scheduler never
 * reaches a connector. Tenants are authenticated by topic (on by default with --secure): a tenant may write only its
 * own submissions topic, so it can neither submit as another tenant nor cancel another tenant's job.
 * {@code quanta acls apply} finds the applied ACLs in place and reports a grant beyond them; the auditor's read-only
 * user audits the jobs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecuredClusterIT {

    private static final Duration START = Duration.ofMinutes(4);
    private static final String NODE_A = "r00-s000";
    private static final String NODE_B = "r00-s001";

    private Path dataDir;
    private final StringWriter output = new StringWriter();
    private LocalRun run;
    private CompletableFuture<Integer> session;
    private final List<String> jobs = new ArrayList<>();

    @BeforeAll
    void startSecuredLocalCluster(@TempDir Path temp) {
        dataDir = temp.resolve("data");
        run = new LocalRun(new LocalRun.Request(dataDir, false, false, new ClusterShape(1, 2, 4),
                NodeSettings.Backend.SIMULATED, "V100", Optional.empty(), 0, 1, 600, false, false,
                Duration.ofMinutes(3), 0, 0, Duration.ofMillis(500), Optional.empty(),
                QuantaConfig.of(Map.of("scheduler.policy", "fifo")), LocalPart.all(), true,
                List.of("vision", "nlp")), new PrintWriter(output, true), new PrintWriter(output, true),
                Clock.systemUTC());
        session = CompletableFuture.supplyAsync(() -> {
            try {
                return run.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitCodes.INTERRUPTED;
            }
        });
        Await.until("quanta local --secure is ready", START, () -> output.toString().contains("ready in")
                || session.isDone());
        assertThat(output.toString()).as("quanta local --secure output").contains("ready in");
    }

    @AfterAll
    void stop() throws Exception {
        if (run != null) {
            run.stop();
            assertThat(session.get(2, TimeUnit.MINUTES)).isZero();
        }
    }

    private Path file(String user) {
        return dataDir.resolve("client-" + user + ".properties");
    }

    private LocalClusterIT.Cli cli(String user, String... args) {
        LocalClusterIT.Cli cli = new LocalClusterIT.Cli();
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-c", file(user).toString()));
        cli.code = cli.line.execute(all.toArray(String[]::new));
        return cli;
    }

    private QuantaConfig config(String user) {
        return QuantaConfig.builder().propertiesFile(file(user)).build();
    }

    @Test
    @Order(1)
    void shouldWriteOneSaslSslClientFilePerUserReadableByOwnerOnly() throws IOException {
        assertThat(output.toString()).contains("security                 SASL_SSL (SCRAM-SHA-512",
                "client-tenant-vision.properties", "client-node-" + NODE_B + ".properties");
        for (String user : List.of("admin", "scheduler", "auditor", "node-" + NODE_A, "node-" + NODE_B,
                "tenant-vision", "tenant-nlp")) {
            Properties p = new Properties();
            try (var in = Files.newBufferedReader(file(user))) {
                p.load(in);
            }
            assertThat(p.getProperty("security.protocol")).as(user).isEqualTo("SASL_SSL");
            assertThat(p.getProperty("sasl.mechanism")).isEqualTo("SCRAM-SHA-512");
            assertThat(p.getProperty("sasl.jaas.config")).contains("username=\"" + user + "\"");
            assertThat(Path.of(p.getProperty("ssl.truststore.location"))).isRegularFile();
            assertThat(p.getProperty("scheduler.tenant.topics")).as(user).isEqualTo("true");
            if (Files.getFileAttributeView(dataDir, java.nio.file.attribute.PosixFileAttributeView.class) != null) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file(user))))
                        .isEqualTo("rw-------");
            }
        }
        Properties defaults = new Properties();
        try (var in = Files.newBufferedReader(dataDir.resolve("client.properties"))) {
            defaults.load(in);
        }
        assertThat(defaults.getProperty("sasl.jaas.config")).contains("username=\"tenant-vision\"");
    }

    @Test
    @Order(2)
    void shouldScheduleRunAndFinishJobWhenTenantSubmitsWithItsOwnUser() {
        LocalClusterIT.Cli submit = cli("tenant-vision", "submit", "--gpus", "2", "--tenant", "vision", "--model",
                "resnet50", "--duration", "1200");
        assertThat(submit.code).as(submit.err.toString()).isZero();
        String id = submit.out.toString().trim();
        jobs.add(id);

        LocalClusterIT.Cli watch = cli("tenant-vision", "watch", id, "--timeout", "120");
        assertThat(watch.code).as(watch.err.toString()).isZero();
        assertThat(watch.out.toString()).contains(id, "RUNNING", "FINISHED");

        LocalClusterIT.Cli nodes = cli("auditor", "nodes");
        assertThat(nodes.code).as(nodes.err.toString()).isZero();
        assertThat(nodes.out.toString()).contains(NODE_A, NODE_B, "2 nodes, 8 GPUs");
        LocalClusterIT.Cli tenantNodes = cli("tenant-vision", "nodes");
        assertThat(tenantNodes.code).isEqualTo(ExitCodes.FORBIDDEN);
        assertThat(tenantNodes.err.toString()).contains("Not authorized to access topics: [quanta.nodes.heartbeats]");
    }

    @Test
    @Order(3)
    void shouldCancelRunningJobWhenTenantCancels() {
        String id = submitRunningJob("nlp", "transformer");
        jobs.add(id);

        LocalClusterIT.Cli cancel = cli("tenant-nlp", "cancel", id, "--wait", "--reason", "test");
        assertThat(cancel.code).as(cancel.out + " " + cancel.err).isZero();
        assertThat(cancel.out.toString()).contains(id + " CANCELLED");
    }

    @Test
    @Order(4)
    void shouldDenyTenantWritingCommands() {
        assertThat(sendCommand("tenant-vision", forgedStart("forged-by-tenant"))).isInstanceOf(
                TopicAuthorizationException.class);
    }

    @Test
    @Order(5)
    void shouldDenyNodeWritingSubmissions() {
        ClusterAccess node = ClusterAccess.of(config("node-" + NODE_A));
        JobRequest request = new JobRequest(JobSubmitted.newBuilder().setJobId("forged-by-node").setTenant("vision")
                .setNumGpus(1).setProfile(ModelProfiles.defaultsFor("resnet50")).setSubmittedAt(Instant.now())
                .build());
        try (KafkaProducer<String, JobRequest> producer = node.producer(node.topics().submissions(), "it-node")) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(node.topics().submissions().name(),
                    "forged-by-node", request)).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        assertThat(cli("tenant-vision", "status", "forged-by-node").code).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    @Order(6)
    void shouldNeverDeliverStartWrittenByNonSchedulerToConnector() {
        assertThat(sendCommand("node-" + NODE_B, forgedStart("forged-by-node"))).isInstanceOf(
                TopicAuthorizationException.class);

        List<NodeCommand> delivered = commandsOnTopic();
        assertThat(delivered).as("the scheduler's STARTs are on the topic the connectors read")
                .anyMatch(c -> c.getType() == NodeCommandType.START && jobs.contains(c.getJobId()));
        assertThat(delivered).noneMatch(c -> c.getJobId().startsWith("forged-"));
    }

    @Test
    @Order(7)
    void shouldFindAppliedAclsAndReportGrantBeyondRolesAsDrift() throws Exception {
        LocalClusterIT.Cli clean = cli("admin", "acls", "apply");
        assertThat(clean.code).as(clean.out + " " + clean.err).isEqualTo(ExitCodes.OK);
        assertThat(clean.out.toString()).contains("0 ACLs created", "0 drift")
                .containsPattern("OK +tenant +User:tenant-nlp +WRITE +TOPIC +literal "
                        + "+quanta\\.jobs\\.submissions\\.nlp\\s")
                .doesNotContainPattern("User:tenant-\\w+ +WRITE +TOPIC +\\w+ +quanta\\.jobs\\.submissions\\s")
                .doesNotContainPattern("User:tenant-nlp +WRITE +TOPIC +\\w+ +quanta\\.jobs\\.submissions\\.vision");

        LocalClusterIT.Cli asTenant = cli("tenant-vision", "acls", "apply", "--tenant", "User:tenant-vision");
        assertThat(asTenant.code).isEqualTo(ExitCodes.FORBIDDEN);
        assertThat(asTenant.err.toString()).contains("may not manage ACLs");

        AclBinding extra = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "quanta.nodes.", PatternType.PREFIXED),
                new AccessControlEntry("User:tenant-nlp", "*", AclOperation.WRITE, AclPermissionType.ALLOW));
        try (Admin admin = Admin.create(config("admin").kafkaClientProperties())) {
            admin.createAcls(List.of(extra)).all().get(30, TimeUnit.SECONDS);
            LocalClusterIT.Cli drift = cli("admin", "acls", "apply");
            assertThat(drift.code).as(drift.out + " " + drift.err).isEqualTo(ExitCodes.DRIFT);
            assertThat(drift.out.toString()).containsPattern(
                    "DRIFT +- +User:tenant-nlp +WRITE +TOPIC +prefixed +quanta.nodes.").contains("1 drift");
            admin.deleteAcls(List.of(extra.toFilter())).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Order(8)
    void shouldAuditJobsWithTheAuditorsReadOnlyUser() {
        LocalClusterIT.Cli explain = cli("auditor", "audit", "explain", jobs.get(0));
        assertThat(explain.code).as(explain.out + " " + explain.err).isZero();
        assertThat(explain.out.toString()).contains(jobs.get(0), "START");

        LocalClusterIT.Cli replay = cli("auditor", "audit", "replay", "--cell", "cell-0");
        assertThat(replay.code).as(replay.out + " " + replay.err).isZero();
    }

    /**
     * A node's own user may write heartbeats, so the broker lets a compromised node write one in another node's name;
     * node authentication (on in --secure) makes the scheduler dead-letter it, and one of a node never admitted, and
     * the jobs above ran only because the real nodes are admitted and sign with their keys.
     */
    @Test
    @Order(9)
    void shouldDeadLetterAForgedHeartbeatOfAnAdmittedNodeAndOneOfANodeNeverAdmitted() throws Exception {
        ClusterAccess nodeA = ClusterAccess.of(config("node-" + NODE_A));
        NodeHeartbeat forged = NodeHeartbeat.newBuilder().setNodeId(NODE_B).setCellId("cell-0").setRack("r00")
                .setEpoch(Long.MAX_VALUE).setGpus(List.of()).setRunning(List.of()).setSentAt(Instant.now()).build();
        NodeHeartbeat intruder = NodeHeartbeat.newBuilder(forged).setNodeId("intruder").setEpoch(1).build();
        try (KafkaProducer<String, NodeHeartbeat> producer = nodeA.producer(nodeA.topics().heartbeats(),
                "it-node-forger")) {
            ProducerRecord<String, NodeHeartbeat> asB = new ProducerRecord<>(nodeA.topics().heartbeats().name(),
                    NODE_B, forged);
            asB.headers().add(io.quanta.topics.auth.NodeMac.HEADER, new byte[32]);
            producer.send(asB).get(30, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(nodeA.topics().heartbeats().name(), "intruder", intruder))
                    .get(30, TimeUnit.SECONDS);
        }

        Await.until("both heartbeats dead-lettered with their reasons", Duration.ofMinutes(1), () -> {
            List<String> reasons = deadLetterReasons();
            return reasons.stream().anyMatch(r -> r.contains("does not verify under node '" + NODE_B + "''s key"))
                    && reasons.stream().anyMatch(r -> r.contains("node 'intruder' is not admitted"));
        });
        // node B is still heard (its epoch was not replaced by Long.MAX_VALUE): a new job still runs
        LocalClusterIT.Cli submit = cli("tenant-vision", "submit", "--gpus", "8", "--tenant", "vision", "--model",
                "resnet50", "--duration", "600");
        assertThat(submit.code).as(submit.err.toString()).isZero();
        LocalClusterIT.Cli watch = cli("tenant-vision", "watch", submit.out.toString().trim(), "--timeout", "120");
        assertThat(watch.out.toString()).contains("FINISHED");
    }

    @Test
    @Order(10)
    void shouldDenyTenantWritingAnotherTenantsSubmissionsTopic() {
        ClusterAccess nlp = ClusterAccess.of(config("tenant-nlp"));
        assertThat(sendSubmission(nlp, "quanta.jobs.submissions.vision", submission("forged-by-nlp", "vision")))
                .isInstanceOf(TopicAuthorizationException.class);

        LocalClusterIT.Cli asVision = cli("tenant-nlp", "submit", "--gpus", "1", "--tenant", "vision", "--model",
                "resnet50", "--duration", "600");
        assertThat(asVision.code).as(asVision.out + " " + asVision.err).isEqualTo(ExitCodes.FORBIDDEN);
        assertThat(asVision.err.toString()).contains("quanta.jobs.submissions.vision");
        assertThat(cli("tenant-vision", "status", "forged-by-nlp").code).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    @Order(11)
    void shouldTakeTheJobsTenantFromTheAuthenticatedTopicNotFromTheSubmission() {
        ClusterAccess vision = ClusterAccess.of(config("tenant-vision"));
        String id = "claims-nlp-" + System.nanoTime();
        assertThat(sendSubmission(vision, "quanta.jobs.submissions.vision", submission(id, "nlp"))).isNull();

        Await.until("the submission claiming tenant nlp is answered", Duration.ofMinutes(1),
                () -> cli("tenant-vision", "status", id).out.toString().contains("REJECTED"));
        LocalClusterIT.Cli status = cli("tenant-vision", "status", id);
        assertThat(status.out.toString()).contains("Tenant:           vision", "State:            REJECTED",
                "tenant 'nlp' in the submission is not the authenticated tenant 'vision'");
    }

    @Test
    @Order(12)
    void shouldRefuseCancelOfAnotherTenantsJobAndLetItsOwnTenantCancelIt() {
        String id = submitRunningJob("vision", "resnet50");

        // the CLI as nlp, on nlp's own topic (which it may write): refused with the reason, nothing sent
        LocalClusterIT.Cli asNlp = cli("tenant-nlp", "cancel", id, "--tenant", "nlp", "--reason", "not yours");
        assertThat(asNlp.code).as(asNlp.out + " " + asNlp.err).isEqualTo(ExitCodes.REFUSED);
        assertThat(asNlp.err.toString()).contains("refused: job " + id + " belongs to tenant 'vision'",
                "sent as tenant 'nlp'");
        assertThat(asNlp.out.toString()).doesNotContain("cancel requested");
        // the scheduler is the authority: the same cancel written on nlp's topic by any other client is refused
        ClusterAccess nlp = ClusterAccess.of(config("tenant-nlp"));
        assertThat(sendRequest(nlp, "quanta.jobs.submissions.nlp", id, new JobRequest(JobCancelRequested.newBuilder()
                .setJobId(id).setReason("not yours").setRequestedAt(Instant.now()).build()))).isNull();
        Await.until("the cancel by nlp refused by the scheduler", Duration.ofMinutes(1), () -> deadLetterReasons()
                .stream().anyMatch(r -> r.contains("cancel refused: tenant 'nlp' may not cancel job " + id
                        + " of tenant 'vision'")));
        assertThat(cli("tenant-vision", "status", id).out.toString()).contains("State:            RUNNING");
        // through vision's topic (the job's tenant, the CLI's default): the broker refuses it
        LocalClusterIT.Cli onVisionsTopic = cli("tenant-nlp", "cancel", id);
        assertThat(onVisionsTopic.code).as(onVisionsTopic.out + " " + onVisionsTopic.err)
                .isEqualTo(ExitCodes.FORBIDDEN);
        assertThat(cli("tenant-vision", "status", id).out.toString()).contains("State:            RUNNING");

        LocalClusterIT.Cli own = cli("tenant-vision", "cancel", id, "--wait", "--reason", "mine");
        assertThat(own.code).as(own.out + " " + own.err).isZero();
        assertThat(own.out.toString()).contains(id + " CANCELLED");
    }

    /**
     * {@code quanta nodes admit} as the administrator: it records the admission and prints the node's key, and a
     * heartbeat signed with that key counts (the scheduler's status API lists the node). Runs last: the node has no
     * connector.
     */
    @Test
    @Order(13)
    void shouldAdmitANodeWithTheCliSoThatItsSignedHeartbeatsCount() throws Exception {
        String newcomer = "r00-s009";
        Path secret = dataDir.resolve("node-secret");
        LocalClusterIT.Cli admit = cli("admin", "nodes", "admit", newcomer, "--by", "it-operator", "--set",
                "scheduler.node.secret.file=" + secret);
        assertThat(admit.code).as(admit.out + " " + admit.err).isZero();
        String key = NodeMac.toHex(NodeSecret.read(secret).keyOf(newcomer));
        assertThat(admit.out.toString()).contains("node " + newcomer + " admitted", "node.auth.key=" + key);

        ClusterAccess node = ClusterAccess.of(config("node-" + NODE_A));
        String topic = node.topics().heartbeats().name();
        byte[] value = node.topics().heartbeats().valueSerde().serializer().serialize(topic, Records.node(newcomer,
                "cell-0", 1, 1, Instant.now()).setRack("r00").build());
        byte[] recordKey = newcomer.getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config("node-" + NODE_A)
                .kafkaClientProperties(), new ByteArraySerializer(), new ByteArraySerializer())) {
            ProducerRecord<byte[], byte[]> beat = new ProducerRecord<>(topic, recordKey, value);
            beat.headers().add(NodeMac.HEADER, NodeMac.sign(NodeMac.fromHex(key), "heartbeats", recordKey, value));
            producer.send(beat).get(30, TimeUnit.SECONDS);
        }

        String text = output.toString();
        String nodes = text.substring(text.indexOf("status API               ") + 25).split("\\s+", 2)[0] + "/nodes";
        HttpClient http = HttpClient.newHttpClient();
        Await.until("the admitted node's signed heartbeat counted", Duration.ofMinutes(1),
                () -> LocalClusterIT.scrape(http, nodes).contains("\"" + newcomer + "\""));
    }

    /** Submits a 1-GPU job that runs for months as {@code tenant}'s user and waits until it runs; its id. */
    private String submitRunningJob(String tenant, String model) {
        String user = "tenant-" + tenant;
        LocalClusterIT.Cli submit = cli(user, "submit", "--gpus", "1", "--tenant", tenant, "--model", model,
                "--duration", "10000000");
        assertThat(submit.code).as(submit.err.toString()).isZero();
        String id = submit.out.toString().trim();
        Await.until("job " + id + " runs", Duration.ofMinutes(1),
                () -> cli(user, "status", id).out.toString().contains("State:            RUNNING"));
        return id;
    }

    private static JobRequest submission(String jobId, String tenant) {
        return new JobRequest(JobSubmitted.newBuilder().setJobId(jobId).setTenant(tenant).setNumGpus(1)
                .setProfile(ModelProfiles.defaultsFor("resnet50")).setExpectedDurationSeconds(600L)
                .setSubmittedAt(Instant.now()).build());
    }

    /** What the broker answered to {@code access}'s user writing {@code request} to {@code topic} (null: accepted). */
    private static Throwable sendSubmission(ClusterAccess access, String topic, JobRequest request) {
        return sendRequest(access, topic, ((JobSubmitted) request.getRequest()).getJobId(), request);
    }

    /** What the broker answered to {@code access}'s user writing {@code request} keyed {@code key} (null: accepted). */
    private static Throwable sendRequest(ClusterAccess access, String topic, String key, JobRequest request) {
        try (KafkaProducer<String, JobRequest> producer = access.producer(access.topics().submissions(), "it-tenant")) {
            producer.send(new ProducerRecord<>(topic, key, request)).get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }

    private List<String> deadLetterReasons() {
        ClusterAccess auditor = ClusterAccess.of(config("auditor"));
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = auditor.consumer(auditor.topics().deadLetter(),
                "it-auditor-dl")) {
            TopicReader<io.quanta.schemas.DeadLetter> reader = new TopicReader<>(consumer,
                    auditor.topics().deadLetter().name(), auditor.topics().deadLetter().valueSerde().deserializer(),
                    Duration.ofSeconds(30));
            List<org.apache.kafka.common.TopicPartition> parts = reader.partitions();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            reader.readToEnd(parts, (key, value) -> out.add(value.getReason()));
        }
        return out;
    }

    private NodeCommand forgedStart(String jobId) {
        return NodeCommand.newBuilder().setCommandId(jobId + "/1/START/" + NODE_A).setNodeId(NODE_A)
                .setEpoch(Long.MAX_VALUE).setJobId(jobId).setAttempt(1).setType(NodeCommandType.START)
                .setGpuIndices(List.of(0)).setCommand(List.of("sh", "-c", "echo owned"))
                .setExpectedDurationSeconds(60L).setIssuedAt(Instant.now()).build();
    }

    /** What the broker answered to {@code user} writing {@code command} (null when it accepted it). */
    private Throwable sendCommand(String user, NodeCommand command) {
        ClusterAccess access = ClusterAccess.of(config(user));
        try (KafkaProducer<String, NodeCommand> producer = access.producer(access.topics().commands(), "it-forger")) {
            producer.send(new ProducerRecord<>(access.topics().commands().name(), command.getNodeId(), command))
                    .get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }

    /** Every command on the topic the connectors read, read to its end as the auditor. */
    private List<NodeCommand> commandsOnTopic() {
        ClusterAccess auditor = ClusterAccess.of(config("auditor"));
        List<NodeCommand> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = auditor.consumer(auditor.topics().commands(), "it-auditor")) {
            TopicReader<NodeCommand> reader = new TopicReader<>(consumer, auditor.topics().commands().name(),
                    auditor.topics().commands().valueSerde().deserializer(), Duration.ofSeconds(30));
            List<org.apache.kafka.common.TopicPartition> parts = reader.partitions();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            reader.readToEnd(parts, (key, value) -> out.add(value));
        }
        return out;
    }
}
