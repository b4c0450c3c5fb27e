package io.quanta.embedded;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension giving tests the JVM-wide shared {@link KafkaStack} ({@link KafkaStacks#shared()}): started before
 * the first test class that uses it, reused by all others, stopped when the test JVM ends. Inject it as a parameter
 * of test, lifecycle or constructor methods.
 */
public final class KafkaStackExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        KafkaStacks.shared();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        return parameter.getParameter().getType() == KafkaStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        return KafkaStacks.shared();
    }
}
