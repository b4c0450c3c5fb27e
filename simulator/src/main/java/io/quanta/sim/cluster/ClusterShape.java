package io.quanta.sim.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A homogeneous cluster of {@code racks x serversPerRack x gpusPerServer} GPUs, written {@code RxSxG} (e.g.
 * {@code 2x12x8}). Node ids are {@code r<rack>-s<server>} with zero-padded numbers, so that their natural order is the
 * rack-major order; rack ids are {@code r<rack>}.
 *
 * @param racks number of racks, at least 1
 * @param serversPerRack servers in each rack, at least 1
 * @param gpusPerServer GPUs of each server, at least 1
 */
public record ClusterShape(int racks, int serversPerRack, int gpusPerServer) {

    private static final Pattern SHAPE = Pattern.compile("^\\s*(\\d+)\\s*[xX]\\s*(\\d+)\\s*[xX]\\s*(\\d+)\\s*$");

    public ClusterShape {
        if (racks < 1 || serversPerRack < 1 || gpusPerServer < 1) {
            throw new IllegalArgumentException("a cluster needs at least 1 rack, server and GPU, got " + racks + "x"
                    + serversPerRack + "x" + gpusPerServer);
        }
        if (racks > 99 || serversPerRack > 999 || gpusPerServer > 64) {
            throw new IllegalArgumentException("cluster " + racks + "x" + serversPerRack + "x" + gpusPerServer
                    + " is too large: at most 99 racks x 999 servers x 64 GPUs");
        }
    }

    /** Parses {@code RxSxG}, e.g. {@code 2x12x8}. */
    public static ClusterShape parse(String text) {
        Matcher m = SHAPE.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("cluster shape must be RACKSxSERVERSxGPUS such as 2x12x8, got '"
                    + text + "'");
        }
        return new ClusterShape(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)));
    }

    /** Total number of servers. */
    public int servers() {
        return racks * serversPerRack;
    }

    /** Total number of GPUs. */
    public int totalGpus() {
        return servers() * gpusPerServer;
    }

    /** Id of rack {@code rack} (0-based). */
    public static String rackId(int rack) {
        return String.format("r%02d", rack);
    }

    /** Id of server {@code server} (0-based) of rack {@code rack}. */
    public static String nodeId(int rack, int server) {
        return String.format("r%02d-s%03d", rack, server);
    }

    /** The rack of a node id made by {@link #nodeId}. */
    public static String rackOf(String nodeId) {
        int dash = nodeId.indexOf('-');
        return dash < 0 ? nodeId : nodeId.substring(0, dash);
    }

    /** Every node id, in rack-major order. */
    public List<String> nodeIds() {
        List<String> ids = new ArrayList<>(servers());
        for (int r = 0; r < racks; r++) {
            for (int s = 0; s < serversPerRack; s++) {
                ids.add(nodeId(r, s));
            }
        }
        return ids;
    }

    @Override
    public String toString() {
        return racks + "x" + serversPerRack + "x" + gpusPerServer;
    }
}
