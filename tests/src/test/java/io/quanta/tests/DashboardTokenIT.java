package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quanta.embedded.Await;
import io.quanta.streams.status.RecentActivity;
import io.quanta.streams.status.StateAccess;
import io.quanta.streams.status.StatusApi;
import io.quanta.streams.status.StatusQueries;
import io.quanta.streams.status.StatusSecurity;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard of a status API that needs a bearer token, in headless Chromium (skipped with a notice without it):
 * a {@code #token=} fragment is used for every request, kept for the tab and removed from the address; without it the
 * page shows its token form on the first 401 and polls once the token is entered; a wrong token is forgotten and
 * asked for again. The API runs without Kafka, over empty stores.
 */
class DashboardTokenIT {

    private static final Duration PAGE = Duration.ofSeconds(60);
    private static final String TOKEN = "dashboard-token-0123456789";

    private StatusApi api;
    private String dashboard;

    @BeforeEach
    void startApi() {
        api = StatusApi.start(new StatusQueries(new EmptyState()), new InetSocketAddress("127.0.0.1", 0),
                () -> "RUNNING", RecentActivity.none(),
                StatusSecurity.of(Optional.of(TOKEN), Optional.empty(), Optional.empty()));
        dashboard = "http://127.0.0.1:" + api.address().getPort() + "/dashboard";
    }

    @AfterEach
    void stopApi() {
        api.close();
    }

    private static Path chromium() {
        Optional<Path> chromium = HeadlessChromium.binary();
        if (chromium.isEmpty()) {
            System.err.println("NOTICE DashboardTokenIT: no Chromium installed, the dashboard's token handling is not "
                    + "tested in a browser (apt-get install -y chromium)");
        }
        assumeTrue(chromium.isPresent(), "no Chromium installed (apt-get install -y chromium)");
        return chromium.get();
    }

    private static void awaitPage(HeadlessChromium browser, String what, String condition) {
        Await.until(what, PAGE, () -> browser.evaluate("document.readyState === 'complete' && Boolean(" + condition
                + ")").asBoolean());
    }

    @Test
    void shouldPollWithTheTokenOfTheFragmentAndRemoveItFromTheAddress() throws Exception {
        try (HeadlessChromium browser = HeadlessChromium.open(chromium(), dashboard + "?every=1#token=" + TOKEN
                + "&job=j-1")) {
            awaitPage(browser, "two polls with the token", "Number(document.body.dataset.polls) >= 2");

            assertThat(browser.evaluate("document.querySelector('#health').textContent").asText())
                    .isEqualTo("scheduler RUNNING");
            assertThat(browser.evaluate("location.hash").asText()).as("address without the token")
                    .isEqualTo("#job=j-1");
            assertThat(browser.evaluate("sessionStorage.getItem('quanta.status.token')").asText()).isEqualTo(TOKEN);
            assertThat(browser.evaluate("document.querySelector('#login').hidden").asBoolean()).isTrue();
            assertThat(browser.evaluate("document.querySelector('#problem').textContent").asText()).isEmpty();
        }
    }

    @Test
    void shouldAskForTheTokenOnceRefusedAndPollWithWhatIsEntered() throws Exception {
        try (HeadlessChromium browser = HeadlessChromium.open(chromium(), dashboard + "?every=1")) {
            awaitPage(browser, "the token form after a 401", "document.querySelector('#login')?.hidden === false");
            assertThat(browser.evaluate("Number(document.body.dataset.polls)").asLong()).as("no data without it")
                    .isZero();
            assertThat(browser.evaluate("document.querySelector('#problem').textContent").asText()).contains("401");

            browser.evaluate("document.querySelector('#token').value = 'wrong-token-0123456789';"
                    + "document.querySelector('#login').requestSubmit(); true");
            awaitPage(browser, "the form again for a wrong token", "!document.querySelector('#login').hidden && "
                    + "document.querySelector('#token').placeholder.includes('wrong')");
            assertThat(browser.evaluate("sessionStorage.getItem('quanta.status.token') === null").asBoolean())
                    .as("a refused token is forgotten").isTrue();

            browser.evaluate("document.querySelector('#token').value = '" + TOKEN + "';"
                    + "document.querySelector('#login').requestSubmit(); true");
            awaitPage(browser, "polls with the entered token", "Number(document.body.dataset.polls) >= 2");
            assertThat(browser.evaluate("document.querySelector('#login').hidden").asBoolean()).isTrue();
            assertThat(browser.evaluate("sessionStorage.getItem('quanta.status.token')").asText()).isEqualTo(TOKEN);
            assertThat(browser.evaluate("location.href").asText()).doesNotContain(TOKEN);
        }
    }

    /** A scheduler instance that owns every key and holds nothing yet. */
    private static final class EmptyState implements StateAccess {

        @Override
        public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
            return new ReadOnlyKeyValueStore<>() {
                @Override
                public V get(String key) {
                    return null;
                }

                @Override
                public KeyValueIterator<String, V> range(String from, String to) {
                    return empty();
                }

                @Override
                public KeyValueIterator<String, V> all() {
                    return empty();
                }

                @Override
                public <PS extends org.apache.kafka.common.serialization.Serializer<P>, P>
                        KeyValueIterator<String, V> prefixScan(P prefix, PS prefixKeySerializer) {
                    return empty();
                }

                @Override
                public long approximateNumEntries() {
                    return 0;
                }
            };
        }

        private static <V> KeyValueIterator<String, V> empty() {
            return new KeyValueIterator<>() {
                @Override
                public boolean hasNext() {
                    return false;
                }

                @Override
                public KeyValue<String, V> next() {
                    throw new java.util.NoSuchElementException();
                }

                @Override
                public void close() {
                }

                @Override
                public String peekNextKey() {
                    throw new java.util.NoSuchElementException();
                }
            };
        }

        @Override
        public Optional<HostInfo> remoteOwner(String store, String key) {
            return Optional.empty();
        }

        @Override
        public List<HostInfo> otherInstances() {
            return List.of();
        }
    }
}
