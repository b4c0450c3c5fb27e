package io.quanta.cli;

import io.quanta.streams.SoftwareVersion;
import picocli.CommandLine;

/** The version printed by {@code quanta --version}: the build's version and git commit (as the audit log records). */
public final class QuantaVersion implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {"quanta " + SoftwareVersion.current()};
    }
}
