package io.quanta.streams.app;

import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Path;

/**
 * Runs the scheduler until it is stopped (Ctrl-C): {@code SchedulerMain [config.properties]}; settings also come from
 * {@code QUANTA_*} environment variables. The CLI's {@code quanta scheduler} does the same through
 * {@link SchedulerApp}.
 */
public final class SchedulerMain {

    private SchedulerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        QuantaConfig.Builder builder = QuantaConfig.builder();
        if (args.length > 0) {
            builder.propertiesFile(Path.of(args[0]));
        }
        QuantaConfig config = builder.environment(System.getenv()).build();
        SchedulerApp app = SchedulerApp.create(config);
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "quanta-scheduler-shutdown"));
        app.start();
        app.awaitStopped();
    }
}
