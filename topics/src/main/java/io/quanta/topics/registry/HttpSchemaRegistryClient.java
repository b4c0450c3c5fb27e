package io.quanta.topics.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quanta.topics.retry.Backoff;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SchemaRegistryClient} over the Confluent schema-registry REST API with {@link java.net.http.HttpClient};
 * works with any Confluent-compatible registry (Confluent, Apicurio's {@code /apis/ccompat/v7}, Redpanda, Karapace).
 * Transient failures (HTTP 5xx, 429, I/O errors) are retried with exponential backoff; 4xx answers fail at once with
 * the subject and the registry's message. Ids and schemas are cached for the life of the client. Thread-safe.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {

    private static final Logger LOG = LoggerFactory.getLogger(HttpSchemaRegistryClient.class);
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RegistryClientSettings settings;
    private final String base;
    private final HttpClient http;
    private final Map<SubjectSchema, Integer> idsBySubjectSchema = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();

    public HttpSchemaRegistryClient(RegistryClientSettings settings) {
        this.settings = settings;
        String url = settings.baseUrl().toString();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(settings.requestTimeout());
        settings.trustStore().ifPresent(store -> builder.sslContext(store.sslContext()));
        this.http = builder.build();
    }

    @Override
    public int register(String subject, Schema schema) {
        return idsBySubjectSchema.computeIfAbsent(new SubjectSchema(subject, schema), key -> {
            JsonNode answer = call("register schema", subject, "POST", "/subjects/" + encode(subject) + "/versions",
                    schemaBody(schema));
            int id = answer.path("id").asInt(-1);
            schemasById.putIfAbsent(id, schema);
            return id;
        });
    }

    @Override
    public int idOf(String subject, Schema schema) {
        return idsBySubjectSchema.computeIfAbsent(new SubjectSchema(subject, schema), key -> {
            JsonNode answer = call("look up schema", subject, "POST", "/subjects/" + encode(subject),
                    schemaBody(schema));
            int id = answer.path("id").asInt(-1);
            schemasById.putIfAbsent(id, schema);
            return id;
        });
    }

    @Override
    public Schema schemaById(int id) {
        return schemasById.computeIfAbsent(id, key -> {
            JsonNode answer = call("fetch schema id " + id, null, "GET", "/schemas/ids/" + id, null);
            return parse(answer.path("schema").asText());
        });
    }

    @Override
    public RegisteredSchema latest(String subject) {
        JsonNode answer = call("fetch latest version", subject, "GET",
                "/subjects/" + encode(subject) + "/versions/latest", null);
        Schema schema = parse(answer.path("schema").asText());
        int id = answer.path("id").asInt(-1);
        schemasById.putIfAbsent(id, schema);
        return new RegisteredSchema(subject, id, answer.path("version").asInt(-1), schema);
    }

    @Override
    public boolean isCompatible(String subject, Schema schema) {
        try {
            JsonNode answer = call("check compatibility", subject, "POST",
                    "/compatibility/subjects/" + encode(subject) + "/versions/latest", schemaBody(schema));
            return answer.path("is_compatible").asBoolean(false);
        } catch (SchemaRegistryException e) {
            if (e.isNotFound()) {
                return true; // no version yet: anything may be registered
            }
            throw e;
        }
    }

    private JsonNode call(String operation, String subject, String method, String path, String body) {
        HttpRequest request = request(method, path, body);
        Backoff backoff = new Backoff(settings.initialBackoff(), settings.maxBackoff());
        int lastStatus = -1;
        String lastProblem = "";
        IOException lastError = null;
        for (int attempt = 0; attempt <= settings.retries(); attempt++) {
            if (attempt > 0) {
                Duration delay = backoff.next();
                LOG.debug("Retrying {} ({}/{}) after {}: {}", operation, attempt, settings.retries(), delay,
                        lastProblem);
                pause(delay);
            }
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status < 300) {
                    return readJson(response.body(), operation, subject);
                }
                ErrorBody error = ErrorBody.parse(response.body(), status);
                if (status >= 400 && status < 500 && status != 429) {
                    throw new SchemaRegistryException(operation, subject, status, error.code(), error.message(), null);
                }
                lastStatus = status;
                lastProblem = "HTTP " + status + ": " + error.message();
                lastError = null;
            } catch (IOException e) {
                lastStatus = -1;
                lastProblem = e.toString();
                lastError = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryException(operation, subject, -1, -1, "interrupted", e);
            }
        }
        String message = "gave up after " + (settings.retries() + 1) + " attempts at " + base + ": " + lastProblem;
        throw new SchemaRegistryException(operation, subject, lastStatus, lastStatus, message, lastError);
    }

    private HttpRequest request(String method, String path, String body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(settings.requestTimeout())
                .header("Accept", CONTENT_TYPE + ", application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            builder.header("Content-Type", CONTENT_TYPE);
        }
        settings.userInfo().ifPresent(info -> builder.header("Authorization", "Basic "
                + Base64.getEncoder().encodeToString(info.value().getBytes(StandardCharsets.UTF_8))));
        return builder.build();
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis()); // retry backoff, not synchronisation
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException("retry backoff", null, -1, -1, "interrupted", e);
        }
    }

    private static String schemaBody(Schema schema) {
        return JSON.createObjectNode().put("schema", schema.toString()).toString();
    }

    private static JsonNode readJson(String body, String operation, String subject) {
        try {
            return JSON.readTree(body == null || body.isEmpty() ? "{}" : body);
        } catch (IOException e) {
            throw new SchemaRegistryException(operation, subject, 200, 200, "unreadable answer: " + abbreviate(body),
                    e);
        }
    }

    private static Schema parse(String text) {
        return new Schema.Parser().parse(text);
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static String abbreviate(String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    private record SubjectSchema(String subject, Schema schema) {
    }

    private record ErrorBody(int code, String message) {
        static ErrorBody parse(String body, int status) {
            try {
                JsonNode node = JSON.readTree(body);
                if (node != null && node.has("message")) {
                    return new ErrorBody(node.path("error_code").asInt(status), node.path("message").asText());
                }
            } catch (IOException | RuntimeException e) {
                // not JSON: fall through to the raw body
            }
            return new ErrorBody(status, abbreviate(body));
        }
    }
}
