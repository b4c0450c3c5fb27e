package io.quanta.cli.local;

import io.quanta.embedded.FreePorts;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The loopback ports of a local cluster: a port the user fixed, else the one the last run used when it is still free
 * (so addresses other terminals know keep working after a restart), else a free one.
 */
public final class LocalPorts {

    public static final String BROKER = "broker.port";
    public static final String CONTROLLER = "controller.port";
    public static final String REGISTRY = "registry.port";
    public static final String STATUS = "status.port";
    public static final String METRICS = "metrics.port";

    private final Map<String, Integer> chosen = new LinkedHashMap<>();

    private LocalPorts() {
    }

    /**
     * Chooses every port.
     *
     * @param fixed ports the user gave (name to port, 0 = not fixed)
     * @param previous ports of the last run (from {@code ports.properties})
     */
    public static LocalPorts choose(Map<String, Integer> fixed, Map<String, String> previous,
                                    Prerequisites.PortProbe probe) {
        LocalPorts ports = new LocalPorts();
        for (String name : new String[] {BROKER, CONTROLLER, REGISTRY, STATUS, METRICS}) {
            int given = fixed.getOrDefault(name, 0);
            int before = previous.containsKey(name) ? Integer.parseInt(previous.get(name)) : 0;
            int port = given > 0 ? given
                    : before > 0 && probe.isFree(before) && !ports.chosen.containsValue(before) ? before
                    : free(ports);
            ports.chosen.put(name, port);
        }
        return ports;
    }

    /** The port of {@code name}. */
    public int get(String name) {
        return chosen.get(name);
    }

    /** Every port by name, for {@code ports.properties}. */
    public Map<String, String> asProperties() {
        Map<String, String> out = new LinkedHashMap<>();
        chosen.forEach((k, v) -> out.put(k, Integer.toString(v)));
        return out;
    }

    private static int free(LocalPorts taken) {
        return FreePorts.next(java.util.Set.copyOf(taken.chosen.values()));
    }
}
