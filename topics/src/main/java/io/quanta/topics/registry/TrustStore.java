package io.quanta.topics.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/** A trust store file (PKCS12 or JKS) whose certificates the registry client trusts for https. */
public record TrustStore(Path location, Optional<Password> password, String type) {

    public TrustStore {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(type, "type");
    }

    /** An SSL context trusting exactly this store; fails naming the file when it cannot be read. */
    public SSLContext sslContext() {
        try (InputStream in = Files.newInputStream(location)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password.map(p -> p.value().toCharArray()).orElse(null));
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException("Cannot load the registry trust store " + location + " (type " + type + "): "
                    + e.getMessage());
        }
    }
}
