package io.quanta.cli.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code quanta local} needs before it starts anything, each check giving one exact message saying what is
 * missing and what to do: a Java 21+ runtime, free disk where the data directory lives, and free ports for those the
 * user fixed. Checks are pure given their inputs (the runtime version, the free bytes, a port probe).
 */
public final class Prerequisites {

    /** Free space asked for: the broker's logs, the registry's database, RocksDB state and reports. */
    public static final long MIN_FREE_BYTES = 1L << 30;
    /** The Java feature release needed (Kafka 4 and the registry both need 21). */
    public static final int MIN_JAVA = 21;

    private Prerequisites() {
    }

    /** Every problem found, empty when all is well. */
    public static List<String> check(int javaFeature, String javaDescription, Path dataDir, long freeBytes,
                                     Map<String, Integer> fixedPorts, PortProbe ports) {
        List<String> problems = new ArrayList<>();
        if (javaFeature < MIN_JAVA) {
            problems.add("Java " + MIN_JAVA + " or newer is needed; this is Java " + javaDescription
                    + ". Install a JDK " + MIN_JAVA + "+ (e.g. 'apt install openjdk-21-jdk') and point JAVA_HOME at it"
                    + " (bin/quanta finds it).");
        }
        if (freeBytes < MIN_FREE_BYTES) {
            problems.add("not enough free disk for the data directory " + dataDir + ": " + mib(freeBytes)
                    + " MiB free, " + mib(MIN_FREE_BYTES) + " MiB needed. Free some space or use --data-dir on "
                    + "another disk.");
        }
        fixedPorts.forEach((what, port) -> {
            if (port > 0 && !ports.isFree(port)) {
                problems.add("port " + port + " (" + what + ") is already in use on 127.0.0.1: stop what uses it "
                        + "(e.g. 'ss -ltnp | grep :" + port + "') or choose another port.");
            }
        });
        return problems;
    }

    /** The checks on this machine. */
    public static List<String> checkHere(Path dataDir, Map<String, Integer> fixedPorts) {
        Runtime.Version v = Runtime.version();
        String java = v + " (" + System.getProperty("java.home") + ")";
        return check(v.feature(), java, dataDir, freeBytes(dataDir), fixedPorts, Prerequisites::portFree);
    }

    /** Free bytes on the file system of {@code dir} (or its nearest existing parent). */
    public static long freeBytes(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        try {
            FileStore store = Files.getFileStore(p == null ? Path.of(".") : p);
            return store.getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Whether nothing listens on {@code 127.0.0.1:port}. */
    public static boolean portFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Tells whether a loopback port is free. */
    @FunctionalInterface
    public interface PortProbe {
        boolean isFree(int port);
    }

    private static long mib(long bytes) {
        return bytes / (1024 * 1024);
    }
}
