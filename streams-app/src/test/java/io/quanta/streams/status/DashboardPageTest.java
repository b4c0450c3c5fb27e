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
    void shouldHashExactlyOneScriptAndOneStyle() {
        String policy = DashboardPage.policyFor(html);

        assertThat(policy).containsPattern("script-src 'sha256-[A-Za-z0-9+/=]{44}'")
                .containsPattern("style-src 'sha256-[A-Za-z0-9+/=]{44}'").doesNotContain("unsafe");
        assertThatThrownBy(() -> DashboardPage.policyFor(html.replace("</body>", "<script>x()</script></body>")))
                .hasMessageContaining("exactly one inline script");
    }
}
