package io.quanta.cli;

import io.quanta.cli.client.ClusterAccess;
import io.quanta.cli.client.JobClient;
import io.quanta.cli.client.StatusApiReader;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Base of the user commands that talk to a cluster: the shared connection options ({@link ConfigOptions}), the
 * picocli spec for output, the wall clock (only ever read here, at the edge), and the {@link JobClient}.
 */
abstract class ClientCommand {

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    /** How long a status API request may take before the command reads the topic instead. */
    private static final Duration STATUS_API_TIMEOUT = Duration.ofSeconds(2);

    final Clock clock = Clock.systemUTC();

    private QuantaConfig loaded;

    /** A client of the configured cluster; says how to name one when nothing is configured. */
    JobClient client() {
        QuantaConfig loaded = loaded();
        if (loaded.registryUrl().isEmpty()) {
            throw new ConfigException("no cluster configured: start one with 'bin/quanta local' (the CLI then finds "
                    + "it), or give --bootstrap HOST:PORT and --registry URL, a properties file with -c, or "
                    + "QUANTA_BOOTSTRAP_SERVERS and QUANTA_SCHEMA_REGISTRY_URL");
        }
        return new JobClient(ClusterAccess.of(loaded), clock, line -> {
            err().println(line);
            err().flush();
        });
    }

    /** The configured scheduler's status API ({@code scheduler.status.url}), when one is configured. */
    Optional<StatusApiReader> statusApi() {
        String url = loaded().getString(SchedulerConfigSection.STATUS_URL);
        return url == null || url.isBlank() ? Optional.empty()
                : Optional.of(new StatusApiReader(URI.create(url.strip()), STATUS_API_TIMEOUT));
    }

    private QuantaConfig loaded() {
        if (loaded == null) {
            loaded = config.load();
        }
        return loaded;
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
