package io.quanta.cli.local;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The parts of a {@code quanta local} cluster, which {@code --only} chooses from. The broker and the registry are
 * always needed (every other part talks to them), and the topics and their schemas are always applied once they
 * run, so {@code --only broker,registry} is the infrastructure alone, ready for {@code quanta scheduler} and
 * {@code quanta node} processes started separately.
 */
public enum LocalPart {
    /** The embedded single-node KRaft broker. */
    BROKER,
    /** The Apicurio schema registry (child process). */
    REGISTRY,
    /** The scheduler with its status API and dashboard. */
    SCHEDULER,
    /** The simulated (or process) node connectors of the cluster shape. */
    NODES;

    /** Every part: a whole cluster. */
    public static Set<LocalPart> all() {
        return EnumSet.allOf(LocalPart.class);
    }

    /** The name users write. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The parts named in {@code --only}.
     *
     * @throws IllegalArgumentException for an empty list, an unknown name, or a list without the broker and the
     *     registry; the message names what is allowed
     */
    public static Set<LocalPart> parse(List<String> names) {
        Set<LocalPart> parts = EnumSet.noneOf(LocalPart.class);
        for (String raw : names) {
            String name = raw.trim().toLowerCase(Locale.ROOT);
            LocalPart part = Arrays.stream(values()).filter(p -> p.label().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("--only: unknown part '" + raw.trim()
                            + "'; the parts are " + labels(all()) + " (the topics and schemas are always applied)"));
            parts.add(part);
        }
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("--only needs at least broker,registry; the parts are " + labels(all()));
        }
        if (!parts.contains(BROKER) || !parts.contains(REGISTRY)) {
            throw new IllegalArgumentException("--only " + labels(parts) + ": broker and registry are always needed "
                    + "(every other part uses them), e.g. --only broker,registry");
        }
        return parts;
    }

    /** {@code broker,registry,...} in the parts' order. */
    public static String labels(Set<LocalPart> parts) {
        return parts.stream().sorted().map(LocalPart::label).collect(Collectors.joining(","));
    }
}
