package io.quanta.chaos.infra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** The scheduler's HTTP status API, as the driver reads it (JSON trees; empty when it does not answer). */
public final class StatusApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public StatusApi(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    /** The Kafka Streams state ({@code RUNNING}, ...), empty when the scheduler does not answer. */
    public Optional<String> health() {
        return get("/health").map(n -> n.path("state").asText());
    }

    /** {@code GET /cells/{cell}/summary}. */
    public Optional<JsonNode> summary(String cell) {
        return get("/cells/" + cell + "/summary");
    }

    /** Any GET answering 200 with JSON. */
    public Optional<JsonNode> get(String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            return Optional.of(JSON.readTree(response.body()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new java.io.InterruptedIOException("interrupted"));
        }
    }
}
