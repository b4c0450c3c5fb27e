package io.quanta.topics.registry;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;

/** A scripted HTTP server on loopback: answers each request with the next queued response, and records requests. */
final class FakeRegistryServer implements AutoCloseable {

    record Response(int status, String body) {
    }

    record Request(String method, String path, String contentType, String authorization, String body) {
    }

    private final HttpServer server;
    private final Deque<Response> responses = new ArrayDeque<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeRegistryServer() throws IOException {
        this(null);
    }

    /** An https server presenting the certificate of {@code tls}, or plain http when null. */
    FakeRegistryServer(SSLContext tls) throws IOException {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls == null) {
            server = HttpServer.create(loopback, 0);
        } else {
            HttpsServer https = HttpsServer.create(loopback, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        }
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestHeaders().getFirst("Authorization"), body));
            Response response;
            synchronized (responses) {
                response = responses.isEmpty() ? new Response(500, "{\"message\":\"no scripted answer\"}")
                        : responses.poll();
            }
            byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
            exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    FakeRegistryServer answer(int status, String body) {
        synchronized (responses) {
            responses.add(new Response(status, body));
        }
        return this;
    }

    String url() {
        return (server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
