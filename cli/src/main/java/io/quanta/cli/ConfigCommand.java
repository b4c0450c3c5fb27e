package io.quanta.cli;

import io.quanta.topics.config.ConfigReference;
import io.quanta.topics.config.ConfigSections;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code quanta config}: the known settings and the effective configuration. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Show settings.",
        subcommands = {ConfigCommand.Reference.class, ConfigCommand.Keys.class, ConfigCommand.Show.class})
public final class ConfigCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Markdown reference of every known key (docs/configuration.md is generated with it). */
    @Command(name = "reference", mixinStandardHelpOptions = true, description = "Print the Markdown reference.")
    static final class Reference implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().getOut().print(ConfigReference.markdown(ConfigSections.discover()));
            spec.commandLine().getOut().flush();
        }
    }

    /** Every known key, one per line. */
    @Command(name = "keys", mixinStandardHelpOptions = true, description = "List every known setting key.")
    static final class Keys implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            ConfigSections.discover().keyNames().forEach(spec.commandLine().getOut()::println);
            spec.commandLine().getOut().flush();
        }
    }

    /** The effective configuration with secrets masked. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print the effective configuration (secrets masked).")
    static final class Show implements Callable<Integer> {
        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().print(config.load().render());
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
