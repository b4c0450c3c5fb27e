package io.quanta.cli;

import picocli.CommandLine;

/** The version printed by {@code quanta --version}: the jar's implementation version, if packaged. */
public final class QuantaVersion implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = QuantaVersion.class.getPackage().getImplementationVersion();
        return new String[] {"quanta " + (version == null ? "(development build)" : version)};
    }
}
