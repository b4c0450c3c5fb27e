package io.quanta.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How a secured {@link EmbeddedKafkaBroker} authenticates and authorizes, and what its clients need:
 * <ul>
 *   <li>clients: one {@code SASL_SSL} listener, SCRAM-SHA-512 over TLS with {@link LoopbackCertificates}; one SCRAM
 *       user per name given, created when the storage is formatted (and added later through the Admin API when a
 *       kept data directory lacks one);</li>
 *   <li>the broker's own principal {@code User:broker} (inter-broker requests on the same listener, SCRAM) and
 *       {@code User:admin} are the super users; everyone else needs ACLs ({@code StandardAuthorizer},
 *       {@code allow.everyone.if.no.acl.found=false});</li>
 *   <li>the controller listener uses SASL PLAIN with one static user, the broker, whose password lives only in this
 *       process's memory: SCRAM credentials are stored in the metadata log, which the controller must already be
 *       serving before it could check them, so KRaft cannot use SCRAM there.</li>
 * </ul>
 * Passwords are random, kept in {@code credentials.properties} of the security directory (owner-only), and reused by
 * the next start on the same directory.
 */
public final class BrokerSecurity {

    public static final String MECHANISM = "SCRAM-SHA-512";
    /** The broker's own principal name (inter-broker and controller requests). */
    public static final String BROKER_USER = "broker";
    /** The administrator's principal name: a super user, for topics, schemas, ACLs and SCRAM users. */
    public static final String ADMIN_USER = "admin";
    static final String CREDENTIALS = "credentials.properties";
    private static final Pattern USER_NAME = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    private final Path dir;
    private final LoopbackCertificates tls;
    private final Map<String, String> passwords;
    private final String controllerPassword = Secrets.randomPassword();

    private BrokerSecurity(Path dir, LoopbackCertificates tls, Map<String, String> passwords) {
        this.dir = dir;
        this.tls = tls;
        this.passwords = java.util.Collections.unmodifiableMap(new TreeMap<>(passwords));
    }

    /**
     * The security kept in {@code dir} (certificates, passwords), completed with a password for every user of
     * {@code users} that has none yet and new certificates when missing or about to expire. {@code admin} and
     * {@code broker} are always users.
     *
     * @throws IllegalArgumentException naming a user name that is not 1 to 128 of {@code [A-Za-z0-9._-]}
     */
    public static BrokerSecurity loadOrCreate(Path dir, Collection<String> users) {
        for (String user : users) {
            if (!USER_NAME.matcher(user).matches()) {
                throw new IllegalArgumentException("user name '" + user + "' is not 1 to 128 letters, digits, '.', "
                        + "'_' or '-'");
            }
        }
        Secrets.createPrivateDirectory(dir);
        Path file = dir.resolve(CREDENTIALS);
        Map<String, String> passwords = new TreeMap<>();
        if (Files.isRegularFile(file)) {
            Properties kept = Secrets.read(file);
            kept.stringPropertyNames().forEach(u -> passwords.put(u, kept.getProperty(u)));
        }
        boolean changed = false;
        for (String user : allUsers(users)) {
            if (!passwords.containsKey(user)) {
                passwords.put(user, Secrets.randomPassword());
                changed = true;
            }
        }
        if (changed) {
            Secrets.writePrivate(file, passwords, "SCRAM-SHA-512 passwords of the embedded broker's users");
        }
        return new BrokerSecurity(dir, LoopbackCertificates.loadOrCreate(dir), passwords);
    }

    /** Whether {@code dir} holds the security of a broker (its credentials file). */
    public static boolean existsIn(Path dir) {
        return Files.isRegularFile(dir.resolve(CREDENTIALS));
    }

    private static List<String> allUsers(Collection<String> users) {
        java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(List.of(BROKER_USER, ADMIN_USER));
        all.addAll(users);
        return List.copyOf(all);
    }

    /** Where the credentials and certificates are kept. */
    public Path directory() {
        return dir;
    }

    public LoopbackCertificates certificates() {
        return tls;
    }

    /** Every SCRAM user name, sorted (the broker and admin included). */
    public Set<String> users() {
        return passwords.keySet();
    }

    /** The principals with every right: {@code User:broker} and {@code User:admin}. */
    public List<String> superUsers() {
        return List.of("User:" + BROKER_USER, "User:" + ADMIN_USER);
    }

    /** SCRAM password of {@code user}. */
    String password(String user) {
        String password = passwords.get(user);
        if (password == null) {
            throw new IllegalArgumentException("no such user '" + user + "'; known: " + passwords.keySet());
        }
        return password;
    }

    /**
     * The Kafka client settings of {@code user} (without {@code bootstrap.servers}): {@code security.protocol},
     * {@code sasl.mechanism}, {@code sasl.jaas.config} with the password, and the PKCS12 trust store. Contains a
     * secret: never print it.
     */
    public Map<String, String> clientProperties(String user) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", MECHANISM);
        p.put("sasl.jaas.config", scramJaas(user, password(user)));
        p.put("ssl.truststore.location", tls.trustStore().toAbsolutePath().toString());
        p.put("ssl.truststore.password", tls.trustStorePassword());
        p.put("ssl.truststore.type", "PKCS12");
        return p;
    }

    /** {@code --add-scram} arguments of the storage formatter: one SCRAM-SHA-512 credential per user. */
    List<String> scramArguments() {
        return passwords.entrySet().stream()
                .map(e -> MECHANISM + "=[name=" + e.getKey() + ",password=" + e.getValue() + "]").toList();
    }

    /** Broker settings for a {@code SECURE} client listener and a {@code CONTROLLER} listener, authorizer on. */
    Map<String, String> brokerProperties(int brokerPort, int controllerPort) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("listeners", "SECURE://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "SECURE://127.0.0.1:" + brokerPort);
        p.put("listener.security.protocol.map", "SECURE:SASL_SSL,CONTROLLER:SASL_PLAINTEXT");
        p.put("inter.broker.listener.name", "SECURE");
        p.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
        p.put("listener.name.secure.sasl.enabled.mechanisms", MECHANISM);
        p.put("listener.name.secure." + MECHANISM.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config",
                scramJaas(BROKER_USER, password(BROKER_USER)));
        p.put("sasl.mechanism.controller.protocol", "PLAIN");
        p.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        p.put("listener.name.controller.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + BROKER_USER
                        + "\" password=\"" + controllerPassword + "\" user_" + BROKER_USER + "=\"" + controllerPassword
                        + "\";");
        p.put("ssl.keystore.location", tls.keyStore().toAbsolutePath().toString());
        p.put("ssl.keystore.password", tls.keyStorePassword());
        p.put("ssl.key.password", tls.keyStorePassword());
        p.put("ssl.keystore.type", "PKCS12");
        p.put("ssl.truststore.location", tls.trustStore().toAbsolutePath().toString());
        p.put("ssl.truststore.password", tls.trustStorePassword());
        p.put("ssl.truststore.type", "PKCS12");
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", String.join(";", superUsers()));
        p.put("allow.everyone.if.no.acl.found", "false");
        return p;
    }

    private static String scramJaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    @Override
    public String toString() {
        return "BrokerSecurity{" + dir + ", users " + passwords.keySet() + "}";
    }
}
