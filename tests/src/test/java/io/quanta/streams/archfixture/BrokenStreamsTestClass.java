package io.quanta.streams.archfixture;

import io.quanta.node.NodeConnector;
import io.quanta.topics.config.QuantaConfig;

/**
 * A deliberate violation of the streams-app rules, used only by ArchitectureTest to show that its rules catch one:
 * a streams-app test helper that starts a node connector (such a test belongs in {@code tests/}).
 */
public final class BrokenStreamsTestClass {

    private BrokenStreamsTestClass() {
    }

    public static NodeConnector node(QuantaConfig config) {
        return NodeConnector.create(config);
    }
}
