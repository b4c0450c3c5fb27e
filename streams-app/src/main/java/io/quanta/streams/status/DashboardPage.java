package io.quanta.streams.status;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live dashboard: one self-contained HTML page ({@code dashboard.html} next to this class: markup, one inline
 * style, one inline script, nothing from elsewhere) that polls the status API's JSON. Served with a
 * Content-Security-Policy that allows exactly that style and that script (by their SHA-256) and requests to this
 * origin only, so no text taken from a record can ever run as code even if the page mishandled it.
 */
public final class DashboardPage {

    static final String RESOURCE = "dashboard.html";
    private static final Pattern SCRIPT = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);
    private static final Pattern STYLE = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL);

    private final byte[] html;
    private final String policy;

    private DashboardPage(byte[] html, String policy) {
        this.html = html;
        this.policy = policy;
    }

    /** The page from the class path, with its policy. */
    public static DashboardPage load() {
        try (InputStream in = DashboardPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            byte[] html = in.readAllBytes();
            return new DashboardPage(html, policyFor(new String(html, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /**
     * The Content-Security-Policy of a page with exactly one inline {@code <style>} and one inline {@code <script>}.
     */
    static String policyFor(String html) {
        return "default-src 'none'; script-src '" + hashOfOnly(SCRIPT, html, "script") + "'; style-src '"
                + hashOfOnly(STYLE, html, "style") + "'; connect-src 'self'; img-src 'self'; base-uri 'none'; "
                + "form-action 'none'; frame-ancestors 'none'";
    }

    /** The policy served with the page. */
    public String policy() {
        return policy;
    }

    /** The page's bytes. */
    public byte[] html() {
        return html.clone();
    }

    void send(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Security-Policy", policy);
        exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
        exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
        StatusApi.sendBytes(exchange, 200, html, "text/html; charset=utf-8");
    }

    private static String hashOfOnly(Pattern element, String html, String name) {
        Matcher m = element.matcher(html);
        if (!m.find()) {
            throw new IllegalStateException(RESOURCE + " has no inline " + name);
        }
        String body = m.group(1);
        if (m.find()) {
            throw new IllegalStateException(RESOURCE + " must have exactly one inline " + name);
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
