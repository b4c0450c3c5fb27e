package io.quanta.cli.local;

import io.quanta.cli.ExitCodes;
import io.quanta.cli.client.ClusterAccess;
import io.quanta.embedded.Secrets;
import io.quanta.cli.observe.ClusterView;
import io.quanta.node.NodeSettings;
import io.quanta.sim.SimulateCommand;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.report.HtmlReport;
import io.quanta.sim.report.SummaryWriter;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.router.TenantTopics;
import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One {@code quanta local} session: checks the prerequisites, opens the data directory, starts the
 * {@link LocalCluster}, prints the addresses, plays the workload if one is given ({@link WorkloadPlayer}), prints
 * progress, writes the summary and the HTML report when the workload ends, and on Ctrl-C (or when done with
 * {@code --exit-when-done}) stops everything, saving the workload's progress so that the next start resumes.
 */
public final class LocalRun {

    private static final DateTimeFormatter REPORT_DIR = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    /**
     * What the user asked for.
     *
     * @param dataDir where state is kept
     * @param fresh start from an empty data directory
     * @param clean delete the data directory when stopping
     * @param shape racks x servers x GPUs
     * @param backend simulated or process nodes
     * @param gpuModel GPU model of simulated nodes
     * @param workload a trace to play, if any
     * @param limit only the first {@code limit} jobs of the trace (0 = all)
     * @param seed seed of the model-profile rule
     * @param speed time compression
     * @param exitWhenDone stop once the workload ended
     * @param stopWhenReady stop as soon as everything runs (smoke tests)
     * @param registryTimeout how long the registry may take to start
     * @param statusPort status API port (0 = reuse or free)
     * @param metricsPort metrics port (0 = reuse or free)
     * @param progressEvery interval between progress lines
     * @param reportDir where reports go; empty = {@code reports/} of the data directory, or {@code ./quanta-reports}
     *     with {@code clean} (the data directory is deleted)
     * @param base the user's configuration
     * @param parts what to run ({@code --only}); the broker and the registry always
     * @param secure SASL_SSL, the authorizer and the roles' ACLs ({@code --secure})
     * @param tenants tenant users of a secured cluster ({@code --tenants}); the first one is in
     *     {@code client.properties} and plays the workload
     */
    public record Request(Path dataDir, boolean fresh, boolean clean, ClusterShape shape, NodeSettings.Backend backend,
                          String gpuModel, Optional<Path> workload, int limit, long seed, double speed,
                          boolean exitWhenDone, boolean stopWhenReady, Duration registryTimeout, int statusPort,
                          int metricsPort, Duration progressEvery, Optional<Path> reportDir, QuantaConfig base,
                          Set<LocalPart> parts, boolean secure, List<String> tenants) {

        /** A plaintext cluster of these parts. */
        public Request(Path dataDir, boolean fresh, boolean clean, ClusterShape shape, NodeSettings.Backend backend,
                       String gpuModel, Optional<Path> workload, int limit, long seed, double speed,
                       boolean exitWhenDone, boolean stopWhenReady, Duration registryTimeout, int statusPort,
                       int metricsPort, Duration progressEvery, Optional<Path> reportDir, QuantaConfig base,
                       Set<LocalPart> parts) {
            this(dataDir, fresh, clean, shape, backend, gpuModel, workload, limit, seed, speed, exitWhenDone,
                    stopWhenReady, registryTimeout, statusPort, metricsPort, progressEvery, reportDir, base, parts,
                    false, List.of());
        }

        /** A whole cluster. */
        public Request(Path dataDir, boolean fresh, boolean clean, ClusterShape shape, NodeSettings.Backend backend,
                       String gpuModel, Optional<Path> workload, int limit, long seed, double speed,
                       boolean exitWhenDone, boolean stopWhenReady, Duration registryTimeout, int statusPort,
                       int metricsPort, Duration progressEvery, Optional<Path> reportDir, QuantaConfig base) {
            this(dataDir, fresh, clean, shape, backend, gpuModel, workload, limit, seed, speed, exitWhenDone,
                    stopWhenReady, registryTimeout, statusPort, metricsPort, progressEvery, reportDir, base,
                    LocalPart.all());
        }

        public Request {
            parts = Set.copyOf(parts);
            tenants = List.copyOf(tenants);
            if (secure && tenants.isEmpty()) {
                throw new IllegalArgumentException("a secured local cluster needs at least one tenant (--tenants)");
            }
            if (!parts.contains(LocalPart.BROKER) || !parts.contains(LocalPart.REGISTRY)) {
                throw new IllegalArgumentException("a local cluster always runs the broker and the registry, got "
                        + LocalPart.labels(parts));
            }
            if (workload.isPresent() && !parts.contains(LocalPart.NODES)) {
                throw new IllegalArgumentException("--workload plays on this cluster's own nodes: add nodes to --only "
                        + "(e.g. --only broker,registry,nodes to schedule it with a separate quanta scheduler)");
            }
        }

        /** Whether some part is left for separate processes. */
        boolean partial() {
            return !parts.containsAll(LocalPart.all());
        }

        /** Where this run's reports go. */
        Path reports(DataDir dir) {
            return reportDir.orElse(clean ? Path.of("quanta-reports").toAbsolutePath() : dir.reports());
        }
    }

    private final Request request;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Clock clock;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch cleanedUp = new CountDownLatch(1);

    public LocalRun(Request request, PrintWriter out, PrintWriter err, Clock clock) {
        this.request = request;
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    /** Runs the session; returns the exit code. */
    public int run() throws InterruptedException {
        Map<String, Integer> fixedPorts = new LinkedHashMap<>();
        if (request.parts().contains(LocalPart.SCHEDULER)) {
            fixedPorts.put("status API", request.statusPort());
        }
        fixedPorts.put("metrics", request.metricsPort());
        List<String> problems = Prerequisites.checkHere(request.dataDir(), fixedPorts);
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("quanta local: " + p));
            err.flush();
            return ExitCodes.FAILURE;
        }
        Optional<Trace> trace = request.workload().map(this::loadTrace);
        DataDir dir = DataDir.open(request.dataDir());
        if (request.fresh() && dir.hasState()) {
            dir.delete();
            dir = DataDir.open(request.dataDir());
        }
        Optional<String> mismatch = securityMismatch(dir);
        if (mismatch.isPresent()) {
            dir.close();
            err.println("quanta local: " + mismatch.get());
            err.flush();
            return ExitCodes.USAGE;
        }
        Thread hook = new Thread(this::onSignal, "quanta-local-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return session(dir, trace);
        } finally {
            cleanedUp.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running and waits for cleanedUp
            }
        }
    }

    /** A kept data directory is resumed only the way it was made: secured, or not. */
    private Optional<String> securityMismatch(DataDir dir) {
        boolean secured = LocalSecurity.isSecured(dir);
        if (request.secure() && dir.hasState() && !secured) {
            return Optional.of(dir.root() + " holds a cluster made without --secure: its clients have no users and "
                    + "its topics no ACLs. Start it without --secure, or start over with --secure --fresh (or "
                    + "another --data-dir)");
        }
        if (!request.secure() && secured) {
            return Optional.of(dir.root() + " holds a cluster made with --secure: add --secure (running it "
                    + "plaintext would drop its authentication and ACLs), or start over with --fresh");
        }
        return Optional.empty();
    }

    private int session(DataDir dir, Optional<Trace> trace) throws InterruptedException {
        LocalPorts ports = LocalPorts.choose(Map.of(LocalPorts.STATUS, request.statusPort(), LocalPorts.METRICS,
                request.metricsPort()), dir.read("ports.properties"), Prerequisites::portFree);
        dir.write("ports.properties", ports.asProperties(), "ports of the last quanta local run");
        Optional<WorkloadState> state = trace.map(t -> WorkloadState.next(WorkloadState.load(dir),
                request.workload().get(), request.limit(), request.speed()));
        ProfileAssigner profiles = ProfileAssigner.standard(request.seed());
        Optional<WorkloadRecorder> recorder = trace.map(t -> new WorkloadRecorder(t,
                j -> state.get().idPrefix() + j.jobId(), profiles, request.speed(), request.shape().totalGpus()));
        TimeCompression time = new TimeCompression(request.speed());
        out.println("quanta local: data directory " + dir.root() + (dir.hasState() ? " (resuming)" : ""));
        out.flush();
        Instant began = clock.instant();
        LocalCluster cluster;
        try {
            cluster = LocalCluster.start(new LocalCluster.Options(request.shape(), request.backend(),
                    request.gpuModel(), time, request.registryTimeout(), request.base(),
                    recorder.map(r -> List.<io.quanta.cli.observe.RecordSink>of(r)).orElse(List.of()),
                    request.parts(), request.secure(), request.tenants()), dir, ports,
                    step -> {
                        out.println("quanta local: " + step + "...");
                        out.flush();
                    });
        } catch (RuntimeException e) {
            dir.close();
            throw e;
        }
        WorkloadPlayer player = null;
        try {
            writeClientProperties(dir, cluster);
            printAddresses(dir, cluster, Duration.between(began, clock.instant()));
            if (request.stopWhenReady()) {
                return ExitCodes.OK;
            }
            Instant origin = clock.instant();
            if (trace.isPresent()) {
                player = preparePlayer(cluster, trace.get(), state.get(), profiles);
                origin = clock.instant().minusMillis(Math.round(state.get().simulatedSeconds() / request.speed()
                        * 1000));
                player = startPlayer(player, trace.get(), state.get(), origin);
            }
            return loop(dir, cluster, trace, state, recorder, player, origin, began);
        } finally {
            if (player != null) {
                player.close();
            }
            out.println("quanta local: stopping...");
            out.flush();
            cluster.close();
            if (request.clean()) {
                dir.delete();
                out.println("quanta local: stopped; deleted " + dir.root());
            } else {
                dir.close();
                out.println("quanta local: stopped; state kept in " + dir.root() + " (next start resumes; --clean "
                        + "deletes it)");
            }
            out.flush();
        }
    }

    private int loop(DataDir dir, LocalCluster cluster, Optional<Trace> trace, Optional<WorkloadState> state,
                     Optional<WorkloadRecorder> recorder, WorkloadPlayer player, Instant origin, Instant began)
            throws InterruptedException {
        LiveProgress progress = new LiveProgress(out);
        String lastLine = "";
        boolean reported = false;
        while (!stopRequested.await(request.progressEvery().toMillis(), TimeUnit.MILLISECONDS)) {
            Instant now = clock.instant();
            double simulated = trace.isPresent() ? Duration.between(origin, now).toMillis() / 1000.0 * request.speed()
                    : -1;
            ClusterView.Snapshot snapshot = cluster.monitor().view().snapshot();
            recorder.ifPresent(r -> r.sample(now, simulated, snapshot));
            String workload = recorder.map(r -> r.ended() + "/" + trace.get().size() + " ended, "
                    + player.submitted() + " submitted").orElse("");
            boolean playing = trace.isPresent() && !reported;
            String line = LiveProgress.line(Duration.ZERO, -1, snapshot, playing ? workload : "");
            if (playing || !line.equals(lastLine)) {
                progress.tick(Duration.between(began, now), simulated, snapshot, workload);
                lastLine = line;
            }
            if (recorder.isPresent() && !reported) {
                boolean done = recorder.get().allEnded();
                state.get().progressed(player.submitted(), simulated, done).save(dir);
                if (done) {
                    report(dir, cluster, trace.get(), recorder.get(), "all jobs ended");
                    reported = true;
                    if (request.exitWhenDone()) {
                        return ExitCodes.OK;
                    }
                    out.println("quanta local: the workload ended; the cluster keeps running (Ctrl-C stops it)");
                    out.flush();
                }
            }
        }
        if (recorder.isPresent() && !reported) {
            double simulated = Duration.between(origin, clock.instant()).toMillis() / 1000.0 * request.speed();
            state.get().progressed(player.submitted(), simulated, false).save(dir);
            report(dir, cluster, trace.get(), recorder.get(), "stopped before every job ended");
        }
        return ExitCodes.OK;
    }

    /** A player whose producer already knows the topic and the value schema's id (no cold start on job 1). */
    private WorkloadPlayer preparePlayer(LocalCluster cluster, Trace trace, WorkloadState state,
                                         ProfileAssigner profiles) {
        ClusterAccess access = ClusterAccess.of(cluster.security().map(s -> cluster.configAs(s.defaultUser()))
                .orElse(cluster.config()));
        // tenants authenticated by topic: the player may write only the first tenant's topic, so every trace job
        // is that tenant's (the trace's virtual clusters would be REJECTED as tenants it is not)
        Optional<String> tenant = cluster.tenantTopics()
                ? cluster.security().map(LocalSecurity::defaultTenant) : Optional.empty();
        String shared = access.topics().submissions().name();
        String topic = tenant.map(t -> new TenantTopics(shared).topicOf(t)).orElse(shared);
        org.apache.kafka.clients.producer.KafkaProducer<String, io.quanta.schemas.JobRequest> producer =
                access.producer(access.topics().submissions(), "quanta-local-workload");
        producer.partitionsFor(topic);
        WorkloadPlayer warm = new WorkloadPlayer(trace, state.idPrefix(), clock.instant(), request.speed(), profiles,
                producer, topic, tenant, clock, state.submitted(), job -> { });
        if (trace.size() > 0) {
            access.topics().submissions().valueSerde().serializer().serialize(topic,
                    warm.request(trace.jobs().get(0), clock.instant()));
        }
        return warm;
    }

    private WorkloadPlayer startPlayer(WorkloadPlayer prepared, Trace trace,
                                       WorkloadState state, Instant origin) {
        WorkloadPlayer player = prepared.withOrigin(origin);
        out.printf("quanta local: playing %s (%d jobs%s) at %sx: ids %s*%s%n", trace.name(), trace.size(),
                state.resumed() ? ", resuming after job " + state.submitted() : "", number(request.speed()),
                state.idPrefix(), player.tenant().map(t -> "; every job as tenant " + t
                        + ", on its own submissions topic (tenants are authenticated by topic)").orElse(""));
        out.flush();
        return player.start();
    }

    private void report(DataDir dir, LocalCluster cluster, Trace trace, WorkloadRecorder recorder, String why) {
        String policy = cluster.config().getString(SchedulerConfigSection.POLICY);
        SimulationRun run = recorder.run(policy, why);
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("policy", policy);
        facts.put("trace", trace.name() + " (" + trace.size() + " jobs)");
        facts.put("cluster", request.shape() + " (" + request.shape().totalGpus() + " GPUs, "
                + request.backend().name().toLowerCase(Locale.ROOT) + " nodes)");
        facts.put("model", "live cluster (quanta local), time compressed " + number(request.speed()) + "x");
        facts.put("seed", Long.toString(request.seed()));
        facts.put("outcome", why);
        Path target = request.reports(dir).resolve(REPORT_DIR.format(clock.instant()) + "-" + policy);
        try {
            Files.createDirectories(target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + target, e);
        }
        SimulateCommand.writeRun(target, facts, run);
        HtmlReport.write(target.resolve("report.html"), "Quanta local run: " + trace.name() + " on "
                + request.shape(), facts, List.of(run));
        out.println();
        out.print(SummaryWriter.text(facts, run));
        out.println("report: " + target.resolve("report.html"));
        out.flush();
    }

    private void printAddresses(DataDir dir, LocalCluster cluster, Duration took) {
        Path client = dir.root().resolve("client.properties");
        out.println();
        out.printf("  kafka bootstrap servers  %s%n", cluster.bootstrapServers());
        out.printf("  schema registry          %s   (log %s)%n", cluster.registryUrl(), cluster.registryLog());
        String only = "not started (--only " + LocalPart.labels(request.parts()) + ")";
        if (!request.parts().contains(LocalPart.SCHEDULER)) {
            out.printf("  status API               %s%n", only);
        } else if (cluster.statusUrl().isPresent()) {
            out.printf("  status API               %s   (e.g. curl %s/cells/%s/summary)%n", cluster.statusUrl().get(),
                    cluster.statusUrl().get(), cluster.config().getString(SchedulerConfigSection.DEFAULT_CELL));
            out.printf("  dashboard                %s%n", cluster.dashboardUrl().orElseThrow());
        } else {
            out.printf("  status API               off%n");
        }
        out.printf("  metrics                  %s%n", cluster.metricsUrl().orElse("off"));
        if (request.parts().contains(LocalPart.NODES)) {
            out.printf("  nodes                    %d x %d GPUs (%s, %s, speed %sx)%n", request.shape().servers(),
                    request.shape().gpusPerServer(), request.shape(),
                    request.backend().name().toLowerCase(Locale.ROOT), number(request.speed()));
        } else {
            out.printf("  nodes                    %s%n", only);
        }
        if (cluster.security().isPresent()) {
            printSecurity(dir, cluster.security().get(), client);
        } else {
            out.printf("  client settings          %s%n", client);
        }
        out.println();
        if (request.partial()) {
            printSeparateParts(dir, client, cluster.security());
        }
        out.println("From another terminal (the CLI finds this cluster by itself while it runs):");
        out.println("  bin/quanta submit --gpus 4 --tenant " + cluster.security().filter(s -> cluster.tenantTopics())
                .map(LocalSecurity::defaultTenant).orElse("vision") + " --model resnet50 --duration 3600");
        if (cluster.security().isPresent()) {
            out.println("  bin/quanta status      bin/quanta queue      bin/quanta watch JOB      (as "
                    + cluster.security().get().defaultUser() + ")");
            out.println("  bin/quanta nodes -c " + dir.root().resolve("client-auditor.properties")
                    + "      bin/quanta acls apply -c " + dir.root().resolve("client-admin.properties"));
            out.println("  elsewhere: bin/quanta status -c " + client);
        } else {
            out.println("  bin/quanta status      bin/quanta queue      bin/quanta nodes      bin/quanta watch JOB");
            out.println("  elsewhere: bin/quanta status -c " + client + "   or   QUANTA_BOOTSTRAP_SERVERS="
                    + cluster.bootstrapServers() + " QUANTA_SCHEMA_REGISTRY_URL=" + cluster.registryUrl());
        }
        out.println();
        out.printf("ready in %.1f s (Ctrl-C stops everything)%n", took.toMillis() / 1000.0);
        out.flush();
    }

    /** The users of a secured cluster and their client settings files. */
    private void printSecurity(DataDir dir, LocalSecurity security, Path client) {
        out.printf("  security                 SASL_SSL (SCRAM-SHA-512, CA %s), ACLs per role; registry plaintext%n",
                security.broker().certificates().caPem());
        out.printf("  client settings          %s   (user %s)%n", client, security.defaultUser());
        for (LocalSecurity.ClientFile file : security.clientFiles()) {
            out.printf("                           %s   (%s)%n", dir.root().resolve(file.name()), file.purpose());
        }
    }

    /** How to run what {@code --only} left out, as separate processes against this cluster. */
    private void printSeparateParts(DataDir dir, Path client, Optional<LocalSecurity> security) {
        out.println("Started only " + LocalPart.labels(request.parts()) + " (topics and schemas applied). Run the rest "
                + "as separate processes against it, e.g.:");
        String nodeId = security.isPresent() ? request.shape().nodeIds().get(0) : "node-1";
        Path scheduler = security.isPresent() ? dir.root().resolve("client-scheduler.properties") : client;
        Path node = security.isPresent()
                ? dir.root().resolve("client-" + LocalSecurity.nodeUser(nodeId) + ".properties") : client;
        if (!request.parts().contains(LocalPart.SCHEDULER)) {
            out.println("  bin/quanta scheduler -c " + scheduler + " --state-dir " + dir.scheduler()
                    + " --set prometheus.port=0");
        }
        if (!request.parts().contains(LocalPart.NODES)) {
            out.println("  bin/quanta node -c " + node + " --node-id " + nodeId + " --backend simulated --gpus 8 "
                    + "--work-dir " + dir.node(nodeId) + " --set prometheus.port=0");
        }
        out.println();
    }

    /**
     * {@code client.properties}: where the cluster is (and, secured, as the first tenant); secured, also one
     * {@code client-<user>.properties} per user, readable by this account only.
     */
    private static void writeClientProperties(DataDir dir, LocalCluster cluster) {
        QuantaConfig config = cluster.config();
        Map<String, String> client = new LinkedHashMap<>();
        client.put(ConnectionConfigSection.BOOTSTRAP_SERVERS, config.bootstrapServers());
        client.put(ConnectionConfigSection.REGISTRY_URL, config.requireRegistryUrl());
        if (cluster.security().isEmpty()) {
            // quanta status JOB and quanta queue ask the status API first (one request, no Kafka consumer)
            cluster.statusUrl().ifPresent(url -> client.put(SchedulerConfigSection.STATUS_URL, url));
            dir.write("client.properties", client, "quanta local: settings for clients of this cluster");
            return;
        }
        LocalSecurity security = cluster.security().get();
        if (cluster.tenantTopics()) {
            // each tenant's requests go to its own topic (JobClient); quanta acls plans the tenant-topic ACLs
            client.put(SchedulerConfigSection.TENANT_TOPICS, "true");
        }
        for (LocalSecurity.ClientFile file : security.clientFiles()) {
            Map<String, String> values = new LinkedHashMap<>(client);
            values.putAll(security.broker().clientProperties(file.user()));
            if (file.user().equals(LocalSecurity.ADMIN)) {
                values.putAll(security.aclSettings()); // quanta acls apply -c client-admin.properties
            }
            Secrets.writePrivate(dir.root().resolve(file.name()), values, "quanta local --secure: " + file.purpose()
                    + " as User:" + file.user());
        }
        Map<String, String> defaults = new LinkedHashMap<>(client);
        defaults.putAll(security.broker().clientProperties(security.defaultUser()));
        Secrets.writePrivate(dir.root().resolve("client.properties"), defaults, "quanta local --secure: settings for "
                + "clients of this cluster, as User:" + security.defaultUser());
    }

    private Trace loadTrace(Path file) {
        Trace t = TraceLoader.load(file);
        return request.limit() > 0 ? t.first(request.limit()) : t;
    }

    /** Asks the session to stop, as Ctrl-C does, without waiting. */
    public void stop() {
        stopRequested.countDown();
    }

    /** Ctrl-C / SIGTERM: ask the session to stop and wait (bounded) until it has cleaned up. */
    private void onSignal() {
        stopRequested.countDown();
        try {
            cleanedUp.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
