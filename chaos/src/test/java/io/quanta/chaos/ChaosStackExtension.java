package io.quanta.chaos;

import io.quanta.chaos.infra.ChaosStack;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests the one {@link ChaosStack} of this test JVM (broker and registry started once for every scenario IT,
 * closed when all tests are done). Runs go under {@code chaos.run.dir} (Failsafe: {@code target/chaos-runs}).
 */
public final class ChaosStackExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ChaosStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(ChaosStackExtension.class, k -> new Holder(ChaosStack.start(runDir())),
                        Holder.class).stack;
    }

    static Path runDir() {
        return Path.of(System.getProperty("chaos.run.dir", "target/chaos-runs"))
                .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    /** Closes the stack with the root context. */
    private record Holder(ChaosStack stack) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            stack.close();
        }
    }
}
