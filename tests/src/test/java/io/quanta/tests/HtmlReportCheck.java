package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks that an HTML report renders with its plots: in headless Chromium when one is installed (Debian's
 * {@code chromium}: the DOM after rendering must hold the three SVG charts with drawn series), else by parsing the
 * file (three {@code <svg>} charts, each with at least one drawn series and its title, no external resources).
 * Install it with {@code apt-get install -y chromium}; CI without it falls back to parsing.
 */
final class HtmlReportCheck {

    private static final List<String> CHARTS = List.of("JCT CDF", "GPU utilisation", "Queue length");

    private HtmlReportCheck() {
    }

    static void assertRenders(Path report) throws IOException {
        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(html).as("self-contained: no scripts, styles or images from elsewhere")
                .doesNotContainPattern("(src|href)=\"https?:").doesNotContain("<script").contains("<svg");
        Optional<String> dom = chromiumDom(report);
        assertCharts(dom.orElse(html), dom.isPresent() ? "rendered by headless Chromium" : "parsed HTML");
    }

    private static void assertCharts(String document, String how) {
        Matcher svg = Pattern.compile("<svg[^>]*>(.*?)</svg>", Pattern.DOTALL).matcher(document);
        int charts = 0;
        StringBuilder titles = new StringBuilder();
        while (svg.find()) {
            String body = svg.group(1);
            charts++;
            titles.append(body);
            assertThat(body).as("chart " + charts + " (" + how + ") draws a series")
                    .containsPattern("<(polyline|path)[^>]*(points|d)=\"[^\"]+\"");
        }
        assertThat(charts).as("charts in the report (" + how + ")").isGreaterThanOrEqualTo(CHARTS.size());
        assertThat(titles.toString()).as("chart titles").contains(CHARTS);
    }

    /** The DOM as headless Chromium renders it, if Chromium is installed. */
    private static Optional<String> chromiumDom(Path report) throws IOException {
        Optional<String> binary = Stream.of("chromium", "chromium-browser", "google-chrome")
                .map(HtmlReportCheck::onPath).flatMap(Optional::stream).findFirst();
        if (binary.isEmpty()) {
            return Optional.empty();
        }
        Path dump = Files.createTempFile("quanta-report-dom-", ".html");
        Process p = new ProcessBuilder(binary.get(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--dump-dom", report.toUri().toString())
                .redirectOutput(dump.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("headless Chromium did not render " + report + " within 120 s");
            }
            assertThat(p.exitValue()).as("headless Chromium exit code").isZero();
            return Optional.of(Files.readString(dump));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new AssertionError("interrupted while rendering " + report, e);
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    private static Optional<String> onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate.toString());
            }
        }
        return Optional.empty();
    }
}
