package io.quanta.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded broker with {@link BrokerSecurity}: SCRAM users over TLS with certificates made at start-up, the
 * standard authorizer denying what no ACL allows, and a restart on the kept directories that adds a new user.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecuredEmbeddedKafkaBrokerIT {

    private Path temp;
    private EmbeddedKafkaBroker broker;

    @BeforeAll
    void start(@TempDir Path dir) {
        temp = dir;
        broker = secured(List.of("alice")).start();
    }

    private EmbeddedKafkaBroker secured(List<String> users) {
        return EmbeddedKafkaBroker.builder().dataDir(temp.resolve("kafka"))
                .security(BrokerSecurity.loadOrCreate(temp.resolve("security"), users)).build();
    }

    @AfterAll
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    @Order(1)
    void shouldServeTlsForLoopbackWhenCertificatesAreMade() throws Exception {
        LoopbackCertificates tls = broker.security().orElseThrow().certificates();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(tls.trustStore())) {
            trust.load(in, tls.trustStorePassword().toCharArray());
        }
        assertThat(java.util.Collections.list(trust.aliases())).hasSize(1);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(tls.keyStore())) {
            keys.load(in, tls.keyStorePassword().toCharArray());
        }
        X509Certificate cert = (X509Certificate) keys.getCertificate("broker");
        List<Object> names = cert.getSubjectAlternativeNames().stream().<Object>map(l -> l.get(1)).toList();
        assertThat(names).contains("127.0.0.1", "localhost");
        assertThat(keys.getCertificateChain("broker")).hasSize(2);
        assertThat(temp.resolve("security").resolve("ca.p12")).doesNotExist();
        if (Files.getFileAttributeView(temp, java.nio.file.attribute.PosixFileAttributeView.class) != null) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    temp.resolve("security").resolve(BrokerSecurity.CREDENTIALS)))).isEqualTo("rw-------");
        }
    }

    @Test
    @Order(2)
    void shouldLetAdminCreateTopicsAndDenyUserWithoutAcl() throws Exception {
        try (Admin admin = Admin.create(props(BrokerSecurity.ADMIN_USER))) {
            admin.createTopics(List.of(new NewTopic("secured-a", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> alice = producer("alice")) {
            assertThatThrownBy(() -> alice.send(new ProducerRecord<>("secured-a", "k", "v")).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    @Order(3)
    void shouldLetUserWriteWhenAclAllowsIt() throws Exception {
        try (Admin admin = Admin.create(props(BrokerSecurity.ADMIN_USER))) {
            admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "secured-a",
                    PatternType.LITERAL), new AccessControlEntry("User:alice", "*", AclOperation.WRITE,
                    AclPermissionType.ALLOW)))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> alice = producer("alice")) {
            Await.until("alice's write is allowed once the ACL reached the authorizer", Duration.ofSeconds(30), () -> {
                try {
                    return alice.send(new ProducerRecord<>("secured-a", "k", "v")).get(10, TimeUnit.SECONDS) != null;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    @Test
    @Order(4)
    void shouldRefuseWrongPassword() {
        Map<String, Object> wrong = props("alice");
        wrong.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"alice\" password=\"not-her-password\";");
        try (Admin admin = Admin.create(wrong)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    @Order(5)
    void shouldAnswerNoPlaintextClient() {
        Map<String, Object> plain = new HashMap<>(Map.of("bootstrap.servers", broker.bootstrapServers(),
                "default.api.timeout.ms", 3_000, "request.timeout.ms", 2_000));
        try (Admin admin = Admin.create(plain)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
        }
    }

    @Test
    @Order(6)
    void shouldKeepUsersAndAddNewOneWhenRestartedOnSameDirectories() throws Exception {
        broker.close();
        broker = secured(List.of("alice", "bob")).start();
        try (Admin admin = Admin.create(props(BrokerSecurity.ADMIN_USER))) {
            assertThat(admin.describeUserScramCredentials().all().get(30, TimeUnit.SECONDS))
                    .containsKeys("admin", "alice", "bob", "broker");
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains("secured-a");
        }
        try (KafkaProducer<String, String> alice = producer("alice")) {
            assertThat(alice.send(new ProducerRecord<>("secured-a", "k", "again")).get(30, TimeUnit.SECONDS))
                    .isNotNull();
        }
        try (KafkaProducer<String, String> bob = producer("bob")) {
            assertThatThrownBy(() -> bob.send(new ProducerRecord<>("secured-a", "k", "v")).get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    private Map<String, Object> props(String user) {
        Map<String, Object> p = new HashMap<>(broker.clientProperties(user));
        p.put("default.api.timeout.ms", 30_000);
        return p;
    }

    private KafkaProducer<String, String> producer(String user) {
        Map<String, Object> p = props(user);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }
}
