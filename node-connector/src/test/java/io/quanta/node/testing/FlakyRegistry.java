package io.quanta.node.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A schema registry that can be switched off: an HTTP proxy on loopback in front of the real registry that answers
 * 503 while {@link #down(boolean) down}. Records which paths it refused.
 */
public final class FlakyRegistry implements AutoCloseable {

    private final HttpServer server;
    private final String target;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<String> refused = new CopyOnWriteArrayList<>();
    private volatile boolean down;

    public FlakyRegistry(String targetUrl) throws IOException {
        this.target = targetUrl;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public void down(boolean value) {
        down = value;
    }

    /** Requests refused so far. */
    public int refused() {
        return refused.size();
    }

    /** Refused requests whose path starts with {@code prefix}. */
    public long refusedPath(String prefix) {
        return refused.stream().filter(p -> p.startsWith(prefix)).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().toString();
            if (down) {
                refused.add(path);
                exchange.sendResponseHeaders(503, -1);
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + path))
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (type != null) {
                request.header("Content-Type", type);
            }
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().firstValue("Content-Type")
                    .ifPresent(t -> exchange.getResponseHeaders().add("Content-Type", t));
            byte[] out = response.body();
            exchange.sendResponseHeaders(response.statusCode(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                try (OutputStream os = exchange.getResponseBody()) {
                    os.write(out);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
