package io.quanta.node.testing;

import io.quanta.node.NodeConnector;
import io.quanta.topics.config.QuantaConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** A node connector as its own OS process, for crash tests: {@code ConnectorMain <settings.properties>}. */
public final class ConnectorMain {

    private ConnectorMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]))) {
            properties.load(in);
        }
        Map<String, String> values = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> values.put(k, properties.getProperty(k)));
        NodeConnector.run(QuantaConfig.of(values));
    }
}
