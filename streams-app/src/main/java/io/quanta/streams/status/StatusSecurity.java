package io.quanta.streams.status;

import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The status API's optional protections (docs/status-api.md, "Authentication and TLS"): a bearer token that every
 * request for data must carry ({@code scheduler.status.token.file}), compared in constant time, and TLS (HTTPS from a
 * PKCS12 key store, {@code scheduler.status.tls.keystore}). Forwarding to another instance uses the same scheme and
 * token and trusts {@code scheduler.status.tls.truststore} (or the key store's own certificates). The token is never
 * printed: {@link #toString()} says only whether there is one.
 */
public final class StatusSecurity {

    /** RFC 6750 b64token characters. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]+=*");
    /** Shortest token accepted: shorter ones can be guessed. */
    static final int MIN_TOKEN_LENGTH = 16;
    private static final String BEARER = "Bearer ";

    private final Optional<Password> token;
    private final Optional<byte[]> tokenDigest;
    private final Optional<SSLContext> server;
    private final Optional<SSLContext> client;

    private StatusSecurity(Optional<Password> token, Optional<SSLContext> server, Optional<SSLContext> client) {
        this.token = token;
        this.tokenDigest = token.map(t -> sha256(t.value()));
        this.server = server;
        this.client = client;
    }

    /** No token, plain HTTP: every client that reaches the port is answered. */
    public static StatusSecurity none() {
        return new StatusSecurity(Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * Explicit protections (tests, embedding).
     *
     * @param token  the bearer token requests must carry, or empty for none
     * @param server the TLS context the API serves HTTPS with, or empty for HTTP
     * @param client the TLS context forwarding to other instances trusts (needed when {@code server} is given)
     */
    public static StatusSecurity of(Optional<String> token, Optional<SSLContext> server, Optional<SSLContext> client) {
        token.ifPresent(t -> requireValidToken(t, "the token"));
        if (server.isPresent() && client.isEmpty()) {
            throw new IllegalArgumentException("HTTPS needs a client context to forward to the other instances");
        }
        return new StatusSecurity(token.map(Password::new), server, client);
    }

    /**
     * The protections the {@code scheduler.status.*} keys ask for; reads the token file and the stores now.
     *
     * @throws ConfigException naming the key when a file cannot be read or holds no valid token (never its content)
     */
    public static StatusSecurity from(QuantaConfig config) {
        Optional<Password> token = Optional.ofNullable(config.getString(SchedulerConfigSection.STATUS_TOKEN_FILE))
                .filter(f -> !f.isBlank()).map(f -> new Password(readToken(Path.of(f))));
        Optional<String> keyStore = Optional.ofNullable(config.getString(SchedulerConfigSection.STATUS_TLS_KEYSTORE))
                .filter(f -> !f.isBlank());
        Optional<String> trustStore = Optional.ofNullable(
                config.getString(SchedulerConfigSection.STATUS_TLS_TRUSTSTORE)).filter(f -> !f.isBlank());
        char[] keyPassword = chars(config.getPassword(SchedulerConfigSection.STATUS_TLS_KEYSTORE_PASSWORD));
        Optional<SSLContext> server = keyStore.map(f -> serverContext(load(Path.of(f), keyPassword,
                SchedulerConfigSection.STATUS_TLS_KEYSTORE), keyPassword));
        Optional<SSLContext> client = trustStore.map(f -> clientContext(load(Path.of(f),
                        chars(config.getPassword(SchedulerConfigSection.STATUS_TLS_TRUSTSTORE_PASSWORD)),
                        SchedulerConfigSection.STATUS_TLS_TRUSTSTORE)))
                .or(() -> keyStore.map(f -> clientContext(load(Path.of(f), keyPassword,
                        SchedulerConfigSection.STATUS_TLS_KEYSTORE))));
        return new StatusSecurity(token, server, client);
    }

    /**
     * The token in {@code file}: its content without surrounding white space.
     *
     * @throws ConfigException when the file cannot be read or holds no valid token
     */
    public static String readToken(Path file) {
        String token;
        try {
            token = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new ConfigException(SchedulerConfigSection.STATUS_TOKEN_FILE, file.toString(),
                    "cannot read the status API token: " + e);
        }
        requireValidToken(token, SchedulerConfigSection.STATUS_TOKEN_FILE + " " + file);
        return token;
    }

    private static void requireValidToken(String token, String where) {
        if (token.length() < MIN_TOKEN_LENGTH || !TOKEN.matcher(token).matches()) {
            throw new ConfigException(where + " must hold one token of at least " + MIN_TOKEN_LENGTH
                    + " characters among letters, digits and -._~+/ (then = padding), e.g. from "
                    + "'openssl rand -hex 32'");
        }
    }

    /** Whether requests must carry the token. */
    public boolean tokenRequired() {
        return token.isPresent();
    }

    /** Whether the API serves HTTPS. */
    public boolean tls() {
        return server.isPresent();
    }

    /** {@code https} or {@code http}. */
    public String scheme() {
        return tls() ? "https" : "http";
    }

    /** The context the server uses for HTTPS, when on. */
    Optional<SSLContext> serverContext() {
        return server;
    }

    /** The context the forwarding client trusts, when HTTPS is on. */
    Optional<SSLContext> clientContext() {
        return client;
    }

    /**
     * Whether a request with this {@code Authorization} header (null when absent) may read: always without a token,
     * else when it is {@code Bearer <token>}. Compares SHA-256 digests with {@link MessageDigest#isEqual}, so the time
     * taken does not depend on how much of the token is right, nor on its length.
     */
    public boolean authorized(String authorization) {
        if (tokenDigest.isEmpty()) {
            return true;
        }
        String presented = authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
                ? authorization.substring(BEARER.length()).strip() : "";
        return MessageDigest.isEqual(tokenDigest.get(), sha256(presented));
    }

    /** The {@code Authorization} header value this instance sends when it forwards a query, if any. */
    Optional<String> authorization() {
        return token.map(t -> BEARER + t.value());
    }

    @Override
    public String toString() {
        return "StatusSecurity[" + scheme() + (tokenRequired() ? ", bearer token" : ", no token") + "]";
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static char[] chars(Password password) {
        return password == null ? null : password.value().toCharArray();
    }

    private static KeyStore load(Path file, char[] password, String key) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(key, file.toString(), "cannot load the PKCS12 store: " + e.getMessage());
        }
    }

    private static SSLContext serverContext(KeyStore store, char[] password) {
        try {
            if (Collections.list(store.aliases()).stream().noneMatch(a -> isKey(store, a))) {
                throw new ConfigException(SchedulerConfigSection.STATUS_TLS_KEYSTORE
                        + " holds no private key entry (its certificate and key)");
            }
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new ConfigException(SchedulerConfigSection.STATUS_TLS_KEYSTORE + ": cannot use its key: "
                    + e.getMessage());
        }
    }

    private static boolean isKey(KeyStore store, String alias) {
        try {
            return store.isKeyEntry(alias);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * A context trusting exactly the certificates of {@code store}: its trusted certificate entries and the own
     * certificate of each key entry (so instances that share one key store trust each other).
     */
    static SSLContext clientContext(KeyStore store) {
        try {
            KeyStore anchors = KeyStore.getInstance("PKCS12");
            anchors.load(null, null);
            for (String alias : Collections.list(store.aliases())) {
                Certificate certificate = store.getCertificate(alias);
                if (certificate != null) {
                    anchors.setCertificateEntry(alias, certificate);
                }
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(anchors);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException("cannot trust the certificates of the status API's store: " + e.getMessage());
        }
    }
}
