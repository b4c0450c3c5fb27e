package io.quanta.tests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quanta.embedded.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A headless Chromium (Debian's {@code chromium}) showing one page, driven over the DevTools protocol: one socket to
 * the browser (its address is in the profile's {@code DevToolsActivePort}), a flattened session attached to the page,
 * and {@code Runtime.evaluate} in the live page, which keeps running and polling between evaluations, so a test waits
 * for a condition with a deadline instead of sleeping. {@link #close()} ends the browser and deletes its fresh
 * profile.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path profile;
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private WebSocket socket;
    private String session;

    private HeadlessChromium(Process process, Path profile) {
        this.process = process;
        this.profile = profile;
    }

    /** The Chromium binary: {@code /usr/bin/chromium}, else one on the PATH; empty when none is installed. */
    static Optional<Path> binary() {
        return Stream.concat(Stream.of(Path.of("/usr/bin/chromium")), Stream.of("chromium", "chromium-browser",
                        "google-chrome").flatMap(name -> Stream.of(System.getenv().getOrDefault("PATH", "")
                        .split(java.io.File.pathSeparator)).map(dir -> Path.of(dir, name))))
                .filter(Files::isExecutable).findFirst();
    }

    /** Starts the browser on {@code url} with a fresh profile and attaches to the page. */
    static HeadlessChromium open(Path binary, String url) throws IOException {
        Path profile = Files.createTempDirectory("quanta-chromium-");
        Process process = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
                "--remote-debugging-port=0", url)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        HeadlessChromium browser = new HeadlessChromium(process, profile);
        try {
            browser.attach(url);
            return browser;
        } catch (RuntimeException e) {
            browser.close();
            throw new IllegalStateException("cannot drive headless Chromium: " + e, e);
        }
    }

    private void attach(String url) {
        Path portFile = profile.resolve("DevToolsActivePort");
        Await.until("headless Chromium writes its DevTools address", Duration.ofSeconds(60),
                () -> !process.isAlive() || lines(portFile).size() >= 2);
        if (!process.isAlive()) {
            throw new IllegalStateException("headless Chromium exited with " + process.exitValue());
        }
        List<String> address = lines(portFile);
        URI browserSocket = URI.create("ws://127.0.0.1:" + address.get(0).trim() + address.get(1).trim());
        socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                .buildAsync(browserSocket, new Listener(this::received)).orTimeout(30, TimeUnit.SECONDS).join();
        String loading = url.contains("#") ? url.substring(0, url.indexOf('#')) : url;
        String[] target = new String[1];
        Await.until("the page's target, " + loading, Duration.ofSeconds(60), () -> {
            for (JsonNode info : call(null, "Target.getTargets", JSON.createObjectNode()).path("targetInfos")) {
                if ("page".equals(info.path("type").asText()) && info.path("url").asText().startsWith(loading)) {
                    target[0] = info.path("targetId").asText();
                    return true;
                }
            }
            return false;
        });
        ObjectNode attach = JSON.createObjectNode().put("targetId", target[0]).put("flatten", true);
        session = call(null, "Target.attachToTarget", attach).path("sessionId").asText();
    }

    /**
     * Evaluates a JavaScript expression in the page (awaiting a promise) and returns its value as JSON.
     *
     * @throws AssertionError when the expression throws
     */
    JsonNode evaluate(String expression) {
        ObjectNode params = JSON.createObjectNode().put("expression", expression).put("returnByValue", true)
                .put("awaitPromise", true);
        JsonNode result = call(session, "Runtime.evaluate", params);
        if (result.has("exceptionDetails")) {
            throw new AssertionError("evaluating " + expression + " failed: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** One DevTools call (on the page's session, or the browser's when {@code sessionId} is null); its result. */
    private JsonNode call(String sessionId, String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", params);
        if (sessionId != null) {
            message.put("sessionId", sessionId);
        }
        try {
            socket.sendText(JSON.writeValueAsString(message), true).get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            JsonNode reply = answer.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (reply.has("error")) {
                throw new IllegalStateException(method + " failed: " + reply.get("error"));
            }
            return reply.path("result");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("headless Chromium did not answer " + method + ": " + e, e);
        } finally {
            pending.remove(id);
        }
    }

    private void received(String message) {
        try {
            JsonNode node = JSON.readTree(message);
            CompletableFuture<JsonNode> waiting = node.has("id") ? pending.get(node.get("id").asInt()) : null;
            if (waiting != null) {
                waiting.complete(node);
            }
        } catch (IOException e) {
            pending.values().forEach(f -> f.completeExceptionally(e));
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            socket.abort();
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        delete(profile);
    }

    /** Collects text frames into messages. */
    private static final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();
        private final Consumer<String> messages;

        Listener(Consumer<String> messages) {
            this.messages = messages;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                messages.accept(text.toString());
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary profile is harmless
        }
    }
}
