package io.quanta.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * TLS material for a broker on loopback, made with the JDK's own {@code keytool} (no extra library): a self-signed CA
 * (EC P-256, ten years), a broker certificate it signs for {@code 127.0.0.1} and {@code localhost} (subject
 * alternative names, so clients keep hostname verification on), the broker's PKCS12 key store (key and chain), and a
 * PKCS12 trust store holding only the CA, which clients use. The CA's private key is deleted once the broker
 * certificate is signed: nobody can issue another certificate clients would trust.
 *
 * <p>{@link #loadOrCreate(Path)} keeps the files in a directory (owner-only permissions where the file system has
 * them) and reuses them while the broker certificate is valid for more than {@link #RENEW_BEFORE}.
 *
 * @param keyStore the broker's key store (PKCS12)
 * @param keyStorePassword its password (also the key's)
 * @param trustStore the clients' trust store (PKCS12, the CA only)
 * @param trustStorePassword its password
 * @param caPem the CA certificate in PEM, for non-Java clients ({@code ssl.ca.location} of librdkafka)
 * @param notAfter when the broker certificate expires
 */
public record LoopbackCertificates(Path keyStore, String keyStorePassword, Path trustStore, String trustStorePassword,
                                   Path caPem, Instant notAfter) {

    /** A certificate closer than this to its expiry is made again. */
    public static final Duration RENEW_BEFORE = Duration.ofDays(30);

    static final String KEY_STORE = "broker.p12";
    static final String TRUST_STORE = "truststore.p12";
    static final String CA_PEM = "ca.pem";
    static final String PASSWORDS = "tls.properties";
    private static final String BROKER_ALIAS = "broker";
    private static final String CA_ALIAS = "quanta-local-ca";
    private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(90);

    /** The files in {@code dir} when they exist and stay valid long enough, else new ones written there. */
    public static LoopbackCertificates loadOrCreate(Path dir) {
        return load(dir).filter(c -> c.notAfter().isAfter(Instant.now().plus(RENEW_BEFORE)))
                .orElseGet(() -> create(dir));
    }

    /** New CA, broker certificate, key store and trust store in {@code dir} (replacing any). */
    public static LoopbackCertificates create(Path dir) {
        try {
            Secrets.createPrivateDirectory(dir);
            String storePassword = Secrets.randomPassword();
            String trustPassword = Secrets.randomPassword();
            String caPassword = Secrets.randomPassword();
            Path work = Files.createTempDirectory(dir, ".keytool-");
            try {
                Path ca = work.resolve("ca.p12");
                Path broker = work.resolve(KEY_STORE);
                Map<String, String> env = Map.of("QUANTA_CA_PASS", caPassword, "QUANTA_STORE_PASS", storePassword);
                keytool(env, "-genkeypair", "-alias", CA_ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
                        "-sigalg", "SHA256withECDSA", "-dname", "CN=Quanta local CA", "-ext", "bc:c",
                        "-validity", "3650", "-keystore", ca.toString(), "-storetype", "PKCS12",
                        "-storepass:env", "QUANTA_CA_PASS");
                keytool(env, "-genkeypair", "-alias", BROKER_ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
                        "-sigalg", "SHA256withECDSA", "-dname", "CN=localhost", "-validity", "825",
                        "-keystore", broker.toString(), "-storetype", "PKCS12", "-storepass:env", "QUANTA_STORE_PASS");
                Path csr = work.resolve("broker.csr");
                Path signed = work.resolve("broker.crt");
                keytool(env, "-certreq", "-alias", BROKER_ALIAS, "-keystore", broker.toString(),
                        "-storepass:env", "QUANTA_STORE_PASS", "-file", csr.toString());
                keytool(env, "-gencert", "-alias", CA_ALIAS, "-keystore", ca.toString(),
                        "-storepass:env", "QUANTA_CA_PASS", "-infile", csr.toString(), "-outfile", signed.toString(),
                        "-rfc", "-validity", "825", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                        "-ext", "EKU=serverAuth,clientAuth", "-ext", "KU=digitalSignature");
                X509Certificate caCert = (X509Certificate) open(ca, caPassword).getCertificate(CA_ALIAS);
                X509Certificate brokerCert = readCertificate(signed);
                writeKeyStore(broker, storePassword, brokerCert, caCert, dir.resolve(KEY_STORE));
                writeTrustStore(caCert, trustPassword, dir.resolve(TRUST_STORE));
                Files.writeString(dir.resolve(CA_PEM), pem(caCert), StandardCharsets.US_ASCII);
                Properties passwords = new Properties();
                passwords.setProperty("keystore.password", storePassword);
                passwords.setProperty("truststore.password", trustPassword);
                Secrets.writePrivate(dir.resolve(PASSWORDS), passwords, "passwords of the loopback TLS stores");
                return new LoopbackCertificates(dir.resolve(KEY_STORE), storePassword, dir.resolve(TRUST_STORE),
                        trustPassword, dir.resolve(CA_PEM), brokerCert.getNotAfter().toInstant());
            } finally {
                EmbeddedKafkaBroker.deleteRecursively(work); // the CA's private key goes with it
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create TLS certificates in " + dir + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot create TLS certificates in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The certificates kept in {@code dir}, if all files are there and readable. */
    static java.util.Optional<LoopbackCertificates> load(Path dir) {
        Path passwords = dir.resolve(PASSWORDS);
        if (!Files.isRegularFile(passwords) || !Files.isRegularFile(dir.resolve(KEY_STORE))
                || !Files.isRegularFile(dir.resolve(TRUST_STORE))) {
            return java.util.Optional.empty();
        }
        try {
            Properties p = Secrets.read(passwords);
            String storePassword = p.getProperty("keystore.password");
            String trustPassword = p.getProperty("truststore.password");
            X509Certificate cert = (X509Certificate) open(dir.resolve(KEY_STORE), storePassword)
                    .getCertificate(BROKER_ALIAS);
            open(dir.resolve(TRUST_STORE), trustPassword);
            return java.util.Optional.of(new LoopbackCertificates(dir.resolve(KEY_STORE), storePassword,
                    dir.resolve(TRUST_STORE), trustPassword, dir.resolve(CA_PEM), cert.getNotAfter().toInstant()));
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    private static void writeKeyStore(Path generated, String password, X509Certificate brokerCert,
                                      X509Certificate caCert, Path target) throws IOException, GeneralSecurityException {
        KeyStore store = open(generated, password);
        Key key = store.getKey(BROKER_ALIAS, password.toCharArray());
        store.setKeyEntry(BROKER_ALIAS, key, password.toCharArray(), new Certificate[] {brokerCert, caCert});
        save(store, password, target);
    }

    private static void writeTrustStore(X509Certificate caCert, String password, Path target)
            throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry(CA_ALIAS, caCert);
        save(store, password, target);
    }

    private static void save(KeyStore store, String password, Path target) throws IOException, GeneralSecurityException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Secrets.createPrivateFile(tmp);
        try (OutputStream out = Files.newOutputStream(tmp)) {
            store.store(out, password.toCharArray());
        }
        Files.move(tmp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static KeyStore open(Path file, String password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        }
        return store;
    }

    private static X509Certificate readCertificate(Path file) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    private static String pem(X509Certificate cert) throws GeneralSecurityException {
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(cert.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
    }

    /** Runs the JDK's keytool with passwords in its environment (never on its command line). */
    private static void keytool(Map<String, String> env, String... args) throws IOException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin",
                System.getProperty("os.name", "").startsWith("Windows") ? "keytool.exe" : "keytool");
        if (!Files.isExecutable(keytool)) {
            throw new IllegalStateException("keytool not found at " + keytool + ": a full JDK is needed to create the "
                    + "TLS certificates of a secured local broker");
        }
        List<String> command = new ArrayList<>();
        command.add(keytool.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (InputStream in = process.getInputStream()) {
            in.transferTo(output);
            if (!process.waitFor(KEYTOOL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool " + args[0] + " did not finish within " + KEYTOOL_TIMEOUT);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool " + args[0], e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed (exit " + process.exitValue() + "): "
                    + output.toString(StandardCharsets.UTF_8).trim());
        }
    }
}
