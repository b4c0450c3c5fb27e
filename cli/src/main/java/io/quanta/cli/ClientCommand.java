package io.quanta.cli;

import io.quanta.cli.client.ClusterAccess;
import io.quanta.cli.client.JobClient;
import io.quanta.topics.config.QuantaConfig;
import java.io.PrintWriter;
import java.time.Clock;
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

    final Clock clock = Clock.systemUTC();

    /** A client of the configured cluster; says how to name one when nothing is configured. */
    JobClient client() {
        QuantaConfig loaded = config.load();
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

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
