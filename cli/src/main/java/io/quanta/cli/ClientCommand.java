package io.quanta.cli;

import io.quanta.cli.client.ClusterAccess;
import io.quanta.cli.client.JobClient;
import java.io.PrintWriter;
import java.time.Clock;
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

    /** A client of the configured cluster. */
    JobClient client() {
        return new JobClient(ClusterAccess.of(config.load()), clock);
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
