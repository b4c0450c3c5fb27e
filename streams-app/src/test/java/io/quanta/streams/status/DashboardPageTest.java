package io.quanta.streams.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The page is self-contained and puts record text into the document only as text (a lint of its source). */
class DashboardPageTest {

    private final String html = new String(DashboardPage.load().html(), StandardCharsets.UTF_8);

    @Test
    void shouldLoadNothingFromElsewhere() {
        assertThat(html).doesNotContainPattern("(?i)\\s(src|href)\\s*=")
                .doesNotContainPattern("(?i)@import|url\\(")
                .doesNotContainPattern("https?://(?!www\\.w3\\.org/2000/svg\")");
    }

    @Test
    void shouldNeverParseTextAsMarkup() {
        assertThat(html).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                "new Function", "setAttribute(\"on", "javascript:");
    }

    @Test
    void shouldSendTheTokenItWasGivenWithEveryRequestAndKeepItOutOfTheAddress() {
        String script = html.substring(html.indexOf("<script>"), html.indexOf("</script>"));

        assertThat(script.split("fetch\\(", -1)).as("one fetch call, in get(), which every request goes through")
                .hasSize(2);
        assertThat(script).contains("if (token) headers.Authorization = \"Bearer \" + token;")
                .contains("credentials: \"omit\"")
                .as("a #token= fragment is taken, kept for the tab and removed from the address")
                .contains("fragment.has(\"token\")", "remember(fragment.get(\"token\")",
                        "history.replaceState(null, \"\", fragmentWithout(\"token\"))",
                        "sessionStorage.setItem(TOKEN_KEY, token)")
                .as("a 401 asks for the token in the form; a wrong one is forgotten")
                .contains("if (response.status === 401) askForToken(token !== null);", "if (wrong) remember(null);")
                .as("the form's token is used without submitting the form anywhere")
                .contains("event.preventDefault();", "remember(value);", "pollNow();")
                .as("nothing that outlives the tab or travels by itself")
                .doesNotContain("localStorage", "document.cookie", "location.href =", "sendBeacon");
        assertThat(html).contains("<form id=\"login\" hidden>", "<input id=\"token\" type=\"password\"");
    }

    @Test
    void shouldHashExactlyOneScriptAndOneStyle() {
        String policy = DashboardPage.policyFor(html);

        assertThat(policy).containsPattern("script-src 'sha256-[A-Za-z0-9+/=]{44}'")
                .containsPattern("style-src 'sha256-[A-Za-z0-9+/=]{44}'").doesNotContain("unsafe");
        assertThatThrownBy(() -> DashboardPage.policyFor(html.replace("</body>", "<script>x()</script></body>")))
                .hasMessageContaining("exactly one inline script");
    }
}
