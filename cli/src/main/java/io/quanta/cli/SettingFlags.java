package io.quanta.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command's flags that each stand for one setting ({@code --cell CELL} sets {@code node.cell}), defined as one
 * table: flag, value label and type, the setting's key, help. A command mixes the flags in with
 * {@code @Mixin CommandSpec flags = FLAGS.options();} (picocli adds them where the field stands, so the help keeps
 * the table's order) and lays {@link #settings(CommandSpec)} over its loaded configuration. Built with picocli's
 * programmatic API because an annotated field per flag would only repeat the table, once more per command.
 */
final class SettingFlags {

    /** One flag: its name, the label and type of its value (picocli checks the type), its key and its help. */
    record Flag(String name, String paramLabel, Class<?> type, String key, String description) {
    }

    private final List<Flag> flags;

    SettingFlags(Flag... flags) {
        this.flags = List.of(flags);
    }

    static Flag flag(String name, String paramLabel, Class<?> type, String key, String description) {
        return new Flag(name, paramLabel, type, key, description);
    }

    /** A new picocli mixin holding these flags, for one command instance. */
    CommandSpec options() {
        CommandSpec spec = CommandSpec.create();
        for (Flag flag : flags) {
            spec.addOption(OptionSpec.builder(flag.name()).paramLabel(flag.paramLabel()).type(flag.type())
                    .description(flag.description()).build());
        }
        return spec;
    }

    /** The settings of the flags given on the command line of {@code options}, by key, in table order. */
    Map<String, String> settings(CommandSpec options) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (Flag flag : flags) {
            Object value = options.findOption(flag.name()).getValue();
            if (value != null) {
                settings.put(flag.key(), value.toString());
            }
        }
        return settings;
    }
}
