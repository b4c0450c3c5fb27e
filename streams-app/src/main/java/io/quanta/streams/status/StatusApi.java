package io.quanta.streams.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.quanta.streams.status.StatusViews.Problem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's HTTP status API (JDK HTTP server, JSON): {@code GET /jobs/{id}}, {@code GET /jobs?state=},
 * {@code GET /nodes}, {@code GET /cells}, {@code GET /cells/{id}/summary}, {@code GET /health}, and what the
 * dashboard adds: {@code GET /jobs/{id}/timeline}, {@code GET /deadletters} (from {@link RecentActivity}) and the page
 * itself, {@code GET /dashboard} ({@link DashboardPage}). A query for a key another instance owns is forwarded to that
 * instance (found with the Kafka Streams metadata); list queries gather from every instance. Read-only: only GET.
 * With a {@link StatusSecurity} token, every request but {@code GET /health}, {@code GET /dashboard} and
 * {@code GET /} (none of which holds data) needs {@code Authorization: Bearer <token>} and gets 401 otherwise; with
 * TLS it serves HTTPS. Forwarding carries the token and uses the same scheme. See docs/status-api.md.
 */
public final class StatusApi implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusApi.class);
    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final ObjectMapper JSON_READ = new ObjectMapper();
    private static final String FORWARDED = "forwarded";
    private static final String LOCAL_SCOPE = "scope=local";

    private final StatusQueries queries;
    private final HttpServer server;
    private final ExecutorService executor;
    private final HttpClient http;
    private final StatusSecurity security;
    private final Supplier<String> health;
    private final RecentActivity activity;
    private final DashboardPage dashboard = DashboardPage.load();
    /** Every resource; a path matches at most one pattern. */
    private final List<StatusRoute> routes;

    private StatusApi(StatusQueries queries, HttpServer server, ExecutorService executor,
                      Supplier<String> health, RecentActivity activity, StatusSecurity security) {
        this.queries = queries;
        this.server = server;
        this.executor = executor;
        this.health = health;
        this.activity = activity;
        this.security = security;
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        security.clientContext().ifPresent(client::sslContext);
        this.http = client.build();
        this.routes = routes();
    }

    private List<StatusRoute> routes() {
        return List.of(
                StatusRoute.open("", r -> redirect(r.exchange(), "dashboard")),
                StatusRoute.open("dashboard", r -> dashboard.send(r.exchange())),
                StatusRoute.open("health", r -> send(r.exchange(), 200, Map.of("state", health.get()))),
                StatusRoute.of("jobs", this::jobs),
                StatusRoute.of("jobs/{}", r -> answer(r, queries.job(r.param(0)))),
                StatusRoute.of("jobs/{}/timeline", r -> timeline(r.exchange(), r.param(0))),
                StatusRoute.of("deadletters", this::deadLetters),
                StatusRoute.of("cells", r -> list(r, queries.localCells(), "/cells?")),
                StatusRoute.of("cells/{}/summary", r -> answer(r, queries.cellSummary(r.param(0)))),
                StatusRoute.of("cells/{}/jobs/{}", r -> answer(r, queries.cellJob(r.param(0), r.param(1)))),
                StatusRoute.of("nodes", r -> list(r, queries.localNodes(), "/nodes?")));
    }

    /**
     * Binds the API (port 0 = any free port) and starts serving.
     *
     * @param health the application state reported by {@code GET /health}
     */
    public static StatusApi start(StatusQueries queries, InetSocketAddress bind, Supplier<String> health) {
        return start(queries, bind, health, RecentActivity.none());
    }

    /**
     * Binds the API (port 0 = any free port) and starts serving.
     *
     * @param health   the application state reported by {@code GET /health}
     * @param activity job timelines and dead letters for the dashboard
     */
    public static StatusApi start(StatusQueries queries, InetSocketAddress bind, Supplier<String> health,
                                  RecentActivity activity) {
        return start(queries, bind, health, activity, StatusSecurity.none());
    }

    /**
     * Binds the API (port 0 = any free port) and starts serving, over HTTPS when {@code security} has TLS.
     *
     * @param health   the application state reported by {@code GET /health}
     * @param activity job timelines and dead letters for the dashboard
     * @param security the token requests must carry and the TLS contexts, or {@link StatusSecurity#none()}
     */
    public static StatusApi start(StatusQueries queries, InetSocketAddress bind, Supplier<String> health,
                                  RecentActivity activity, StatusSecurity security) {
        try {
            HttpServer server;
            if (security.serverContext().isPresent()) {
                HttpsServer https = HttpsServer.create(bind, 0);
                https.setHttpsConfigurator(new HttpsConfigurator(security.serverContext().get()));
                server = https;
            } else {
                server = HttpServer.create(bind, 0);
            }
            ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
                Thread t = new Thread(r, "quanta-status-api");
                t.setDaemon(true);
                return t;
            });
            StatusApi api = new StatusApi(queries, server, executor, health, activity, security);
            server.createContext("/", api::handle);
            server.setExecutor(executor);
            server.start();
            return api;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the status API to " + bind + ": " + e.getMessage(), e);
        }
    }

    /** The bound address. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** {@code https} when the API serves TLS, else {@code http}. */
    public String scheme() {
        return security.scheme();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, new Problem(405, "only GET is supported"));
                return;
            }
            String rawPath = exchange.getRequestURI().getRawPath();
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            // a forwarded request may be forwarded once more, to another resource only (a job's route and its cell
            // can live on different instances); the same resource is never forwarded twice, so there are no loops
            String forwardedFrom = query.containsKey(FORWARDED) ? rawPath : null;
            List<String> parts = segments(rawPath);
            StatusRoute route = null;
            List<String> params = List.of();
            for (StatusRoute candidate : routes) {
                Optional<List<String>> match = candidate.match(parts);
                if (match.isPresent()) {
                    route = candidate;
                    params = match.get();
                    break;
                }
            }
            if ((route == null || !route.open())
                    && !security.authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
                unauthorized(exchange);
            } else if (route == null) {
                send(exchange, 404, new Problem(404, "no such resource; see docs/status-api.md"));
            } else {
                route.handler().handle(new StatusRoute.Request(exchange, params, query, forwardedFrom));
            }
        } catch (IllegalStateException | InvalidStateStoreException e) {
            send(exchange, 503, new Problem(503, "not available right now: " + e.getMessage()));
        } catch (RuntimeException e) {
            LOG.warn("status API error on {}: {}", exchange.getRequestURI(), e.toString());
            send(exchange, 500, new Problem(500, e.toString()));
        }
    }

    private static void redirect(HttpExchange exchange, String location) throws IOException {
        exchange.getResponseHeaders().set("Location", location);
        sendBytes(exchange, 303, new byte[0], "text/plain");
    }

    /** 401 with the RFC 6750 challenge; {@code invalid_token} when a token was sent but is not the one. */
    private static void unauthorized(HttpExchange exchange) throws IOException {
        boolean presented = exchange.getRequestHeaders().containsKey("Authorization");
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"quanta\""
                + (presented ? ", error=\"invalid_token\"" : ""));
        send(exchange, 401, new Problem(401, presented ? "wrong bearer token"
                : "this status API needs 'Authorization: Bearer <token>' (scheduler.status.token.file)"));
    }

    /** A list of this instance's items plus, unless the request is local only, every other instance's. */
    private void list(StatusRoute.Request request, List<?> local, String pathAndQuery) throws IOException {
        List<Object> items = new ArrayList<>(local);
        if (!request.localOnly()) {
            items.addAll(gather(pathAndQuery + LOCAL_SCOPE));
        }
        items.sort(Comparator.comparing(StatusApi::idOf));
        send(request.exchange(), 200, items);
    }

    /** {@code GET /jobs?state=A,B}: every job, or those in the given states. */
    private void jobs(StatusRoute.Request request) throws IOException {
        HttpExchange exchange = request.exchange();
        Map<String, String> query = request.query();
        Optional<String> states = Optional.ofNullable(query.get("state")).map(s -> s.toUpperCase(Locale.ROOT));
        Set<String> wanted = new TreeSet<>();
        for (String state : states.map(s -> s.split(",")).orElse(new String[0])) {
            if (!isJobState(state.trim())) {
                send(exchange, 400, new Problem(400, "unknown state " + state.trim()));
                return;
            }
            wanted.add(state.trim());
        }
        list(request, queries.localJobs(wanted),
                "/jobs?" + (wanted.isEmpty() ? "" : "state=" + String.join(",", wanted) + "&"));
    }

    /** {@code GET /jobs/{id}/timeline}: what the recent activity holds about the job. */
    private void timeline(HttpExchange exchange, String jobId) throws IOException {
        Optional<ActivityLog.Timeline> timeline = activity.timeline(jobId);
        if (timeline.isPresent()) {
            send(exchange, 200, timeline.get());
        } else {
            send(exchange, 404, new Problem(404, "nothing recent about job " + jobId + " (the timeline keeps the last "
                    + ActivityTail.BACKFILL + " records of each partition and what follows)"));
        }
    }

    /** {@code GET /deadletters?limit=N}: the newest dead letters first. */
    private void deadLetters(StatusRoute.Request request) throws IOException {
        HttpExchange exchange = request.exchange();
        int limit;
        try {
            limit = Integer.parseInt(request.query().getOrDefault("limit", "20"));
        } catch (NumberFormatException e) {
            limit = -1;
        }
        if (limit < 1 || limit > ActivityLog.MAX_DEAD_LETTERS) {
            send(exchange, 400, new Problem(400, "limit must be a number from 1 to " + ActivityLog.MAX_DEAD_LETTERS));
            return;
        }
        send(exchange, 200, activity.deadLetters(limit));
    }

    private void answer(StatusRoute.Request request, Answer<?> answer) throws IOException {
        HttpExchange exchange = request.exchange();
        String forwarded = request.forwardedFrom();
        switch (answer) {
            case Answer.Found<?> f -> send(exchange, 200, f.value());
            case Answer.NotFound<?> n -> send(exchange, 404, new Problem(404, n.message()));
            case Answer.Unavailable<?> u -> send(exchange, 503, new Problem(503, u.message()));
            case Answer.Elsewhere<?> e -> {
                if (forwarded != null && forwarded.equals(pathOnly(e.path()))) {
                    send(exchange, 503, new Problem(503, "the owner of this key moved; retry"));
                } else {
                    forward(exchange, e);
                }
            }
        }
    }

    private static String pathOnly(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        return q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
    }

    private void forward(HttpExchange exchange, Answer.Elsewhere<?> target) throws IOException {
        String sep = target.path().contains("?") ? "&" : "?";
        URI uri = URI.create(security.scheme() + "://" + target.host() + ":" + target.port() + target.path() + sep
                + FORWARDED);
        try {
            HttpResponse<byte[]> response = http.send(request(uri), HttpResponse.BodyHandlers.ofByteArray());
            sendBytes(exchange, response.statusCode(), response.body());
        } catch (IOException e) {
            send(exchange, 502, new Problem(502, "owner " + target.host() + ":" + target.port()
                    + " did not answer: " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(exchange, 503, new Problem(503, "interrupted"));
        }
    }

    /** The JSON array answers of every other instance for {@code path}, as generic maps. */
    private List<Object> gather(String path) {
        List<Object> out = new ArrayList<>();
        for (HostInfo host : queries.state().otherInstances()) {
            URI uri = URI.create(security.scheme() + "://" + host.host() + ":" + host.port() + path);
            try {
                HttpResponse<byte[]> response = http.send(request(uri), HttpResponse.BodyHandlers.ofByteArray());
                if (response.statusCode() == 200) {
                    out.addAll(JSON_READ.readValue(response.body(), List.class));
                } else {
                    LOG.warn("status API: {} answered {}", uri, response.statusCode());
                }
            } catch (IOException e) {
                LOG.warn("status API: {} did not answer: {}", uri, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return out;
    }

    /** A GET to another instance, with this instance's token when there is one. */
    private HttpRequest request(URI uri) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET();
        security.authorization().ifPresent(value -> request.header("Authorization", value));
        return request.build();
    }

    private static String idOf(Object item) {
        return switch (item) {
            case StatusViews.JobView j -> j.jobId();
            case StatusViews.NodeView n -> n.cellId() + "/" + n.nodeId();
            case StatusViews.CellSummary c -> c.cellId() + "/";
            case Map<?, ?> m -> m.containsKey("jobId") ? String.valueOf(m.get("jobId"))
                    : m.get("cellId") + "/" + (m.containsKey("nodeId") ? m.get("nodeId") : "");
            default -> item.toString();
        };
    }

    private static boolean isJobState(String state) {
        for (io.quanta.core.model.JobState s : io.quanta.core.model.JobState.values()) {
            if (s.name().equals(state)) {
                return true;
            }
        }
        return false;
    }

    /** The path's segments, each percent-decoded (a job id may hold any character, '/' included). */
    private static List<String> segments(String rawPath) {
        String trimmed = rawPath == null ? "" : rawPath.replaceAll("^/+|/+$", "");
        List<String> out = new ArrayList<>();
        for (String segment : trimmed.split("/", -1)) {
            out.add(URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8));
        }
        return out;
    }

    /**
     * The query's {@code name=value} pairs, each decoded by the JDK's {@code application/x-www-form-urlencoded}
     * decoder; a repeated name keeps its last value.
     */
    private static Map<String, String> query(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Map.of();
        }
        return Arrays.stream(raw.split("&")).map(pair -> pair.split("=", 2)).collect(Collectors.toMap(
                kv -> URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                kv -> kv.length < 2 ? "" : URLDecoder.decode(kv[1], StandardCharsets.UTF_8), (a, b) -> b));
    }

    private static void send(HttpExchange exchange, int status, Object body) throws IOException {
        sendBytes(exchange, status, JSON.writeValueAsBytes(body));
    }

    private static void sendBytes(HttpExchange exchange, int status, byte[] body) throws IOException {
        sendBytes(exchange, status, body, "application/json");
    }

    /** Sends a body; every answer is uncached and never sniffed as another type. */
    static void sendBytes(HttpExchange exchange, int status, byte[] body, String contentType) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }
}
