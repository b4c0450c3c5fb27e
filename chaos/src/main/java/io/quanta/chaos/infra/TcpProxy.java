package io.quanta.chaos.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user-space network partition: forwards TCP connections accepted on a loopback port to a target, byte for byte,
 * until {@link #partition()} drops every open connection and stops listening (new connections are refused), and
 * {@link #heal()} listens again on the same port. A Kafka client bootstrapped to this port, on a broker listener
 * that advertises this port, sends all its broker traffic through here; no root privileges, no iptables.
 */
public final class TcpProxy implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TcpProxy.class);

    private final int port;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong forwardedBytes = new AtomicLong();
    private volatile ServerSocket server;
    private Thread acceptor;
    private volatile boolean closed;

    /**
     * @param port       where clients connect (fixed: a broker listener advertises it)
     * @param targetPort where the bytes go, on loopback
     */
    public TcpProxy(int port, int targetPort) {
        this.port = port;
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
    }

    /** Starts listening (also what {@link #heal()} does). */
    public synchronized TcpProxy start() {
        if (server != null) {
            return this;
        }
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            server = socket;
        } catch (IOException e) {
            throw new UncheckedIOException("proxy cannot listen on port " + port, e);
        }
        ServerSocket listening = server;
        acceptor = Thread.ofPlatform().daemon().name("chaos-proxy-accept-" + port).start(() -> acceptLoop(listening));
        return this;
    }

    /**
     * Drops every open connection and refuses new ones until {@link #heal()}. Returns once the listening socket is
     * gone: the kernel keeps it while a thread is still blocked in {@code accept()}, so this waits for that thread.
     */
    public synchronized void partition() {
        ServerSocket listening = server;
        server = null;
        closeQuietly(listening);
        if (acceptor != null) {
            try {
                acceptor.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
        LOG.info("proxy {}: partitioned", port);
    }

    /** Accepts and forwards connections again. */
    public synchronized void heal() {
        start();
        LOG.info("proxy {}: healed", port);
    }

    public boolean isPartitioned() {
        return server == null;
    }

    public int port() {
        return port;
    }

    /** Connections accepted since start. */
    public long acceptedConnections() {
        return accepted.get();
    }

    /** Bytes forwarded in both directions since start. */
    public long forwardedBytes() {
        return forwardedBytes.get();
    }

    @Override
    public synchronized void close() {
        closed = true;
        partition();
    }

    private void acceptLoop(ServerSocket listening) {
        while (!closed && listening == server) {
            Socket client;
            try {
                client = listening.accept();
            } catch (IOException e) {
                return; // closed by partition() or close()
            }
            accepted.incrementAndGet();
            Thread.ofVirtual().start(() -> connect(client, listening));
        }
    }

    private void connect(Socket client, ServerSocket acceptedBy) {
        Socket upstream = new Socket();
        try {
            upstream.connect(target, 5_000);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
            return;
        }
        synchronized (this) {
            if (server != acceptedBy) { // partitioned while connecting
                closeQuietly(client);
                closeQuietly(upstream);
                return;
            }
            open.add(client);
            open.add(upstream);
        }
        Thread.ofVirtual().start(() -> pump(client, upstream));
        Thread.ofVirtual().start(() -> pump(upstream, client));
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
                forwardedBytes.addAndGet(n);
            }
        } catch (IOException e) {
            // a side closed (or partition() closed both): the connection is over
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
