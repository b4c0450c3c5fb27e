package io.quanta.streams;

import io.quanta.topics.auth.NodeSecret;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The scheduler's limits against hostile or broken input and stuck attempts.
 *
 * @param inputMaxBytes largest input value a router decodes; larger ones go to the dead letters unread
 * @param maxClockSkew  how far ahead of the scheduler's clock an input record's timestamp may be; a record further
 *                      ahead goes to the dead letters, so no producer's clock moves a cell's time
 * @param startTimeout  longest an attempt may stay STARTING (stream time) before it is given up (a failure under the
 *                      job's retry rules); zero = off
 * @param suspendTimeout longest an attempt may stay SUSPENDING (stream time) before its nodes are told to KILL it and
 *                      the job is requeued from its previous checkpoint; zero = off
 * @param nodeSecret    when present, node authentication is on: heartbeats, events and telemetry count only from
 *                      admitted nodes and with a valid {@code quanta-node-mac} under the node's key
 * @param tenantTopics  whether tenants are authenticated by their own submissions topic
 *                      ({@link io.quanta.streams.router.TenantTopics})
 */
public record Safeguards(int inputMaxBytes, Duration maxClockSkew, Duration startTimeout, Duration suspendTimeout,
                         Optional<NodeSecret> nodeSecret, boolean tenantTopics) {

    public Safeguards {
        if (inputMaxBytes < 1024) {
            throw new IllegalArgumentException("input max bytes must be >= 1024, got " + inputMaxBytes);
        }
        if (maxClockSkew.isNegative() || maxClockSkew.isZero()) {
            throw new IllegalArgumentException("max clock skew must be > 0, got " + maxClockSkew);
        }
        if (startTimeout.isNegative() || suspendTimeout.isNegative()) {
            throw new IllegalArgumentException("attempt timeouts must be >= 0 (0 = off)");
        }
        Objects.requireNonNull(nodeSecret, "nodeSecret");
    }

    /** Safeguards without node authentication. */
    public Safeguards(int inputMaxBytes, Duration maxClockSkew, Duration startTimeout, Duration suspendTimeout) {
        this(inputMaxBytes, maxClockSkew, startTimeout, suspendTimeout, Optional.empty(), false);
    }

    /** A copy with node authentication under {@code secret}. */
    public Safeguards withNodeSecret(NodeSecret secret) {
        return new Safeguards(inputMaxBytes, maxClockSkew, startTimeout, suspendTimeout, Optional.of(secret),
                tenantTopics);
    }

    /** A copy with tenants authenticated by topic (or not). */
    public Safeguards withTenantTopics(boolean value) {
        return new Safeguards(inputMaxBytes, maxClockSkew, startTimeout, suspendTimeout, nodeSecret, value);
    }
}
