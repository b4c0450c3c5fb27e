package io.quanta.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Administrative calls to a Confluent-compatible registry API that the stacks make at start-up. */
final class RegistryAdmin {

    private RegistryAdmin() {
    }

    /** {@code PUT <url>/config {"compatibility":"BACKWARD"}}: the global level, so incompatible schemas are refused. */
    static void setBackwardCompatibility(HttpClient http, String url) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url + "/config"))
                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/vnd.schemaregistry.v1+json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"BACKWARD\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("PUT " + url + "/config answered " + response.statusCode() + ": "
                        + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot set compatibility BACKWARD at " + url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while configuring the registry at " + url, e);
        }
    }
}
