package io.quanta.cli.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Executors;

/**
 * A Prometheus registry (with JVM and CPU meters) served over HTTP at {@code GET /metrics} (text format 0.0.4) and
 * {@code GET /health} ({@code ok}), on the {@code prometheus.*} address. One per process.
 */
public final class MetricsServer implements AutoCloseable {

    private final PrometheusMeterRegistry registry;
    private final HttpServer server;
    private final JvmGcMetrics gc;

    private MetricsServer(PrometheusMeterRegistry registry, HttpServer server, JvmGcMetrics gc) {
        this.registry = registry;
        this.server = server;
        this.gc = gc;
    }

    /** Starts the endpoint when {@code metrics.enabled}; empty otherwise. */
    public static Optional<MetricsServer> start(QuantaConfig config) {
        if (!config.getBoolean(MetricsConfigSection.ENABLED)) {
            return Optional.empty();
        }
        return Optional.of(start(config.getString(MetricsConfigSection.HOST),
                config.getInt(MetricsConfigSection.PORT)));
    }

    /** Starts the endpoint on {@code host:port} (port 0 = any free port). */
    public static MetricsServer start(String host, int port) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (IOException e) {
            gc.close();
            throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port + " (" + e.getMessage()
                    + "): choose another port with prometheus.port (--set prometheus.port=...)", e);
        }
        server.createContext("/metrics", exchange -> reply(exchange, "text/plain; version=0.0.4; charset=utf-8",
                registry.scrape()));
        server.createContext("/health", exchange -> reply(exchange, "text/plain", "ok\n"));
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "quanta-metrics-http");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return new MetricsServer(registry, server, gc);
    }

    /** The registry to bind meters to. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** {@code http://host:port/metrics}. */
    public String url() {
        InetSocketAddress a = server.getAddress();
        return "http://" + a.getHostString() + ":" + a.getPort() + "/metrics";
    }

    @Override
    public void close() {
        server.stop(0);
        gc.close();
        registry.close();
    }

    private static void reply(HttpExchange exchange, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
