package io.quanta.topics.auth;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Proof that a heartbeat, job event or telemetry record comes from the node it names. Kafka records do not carry the
 * producer's principal, so each node signs what it writes: header {@value #HEADER} holds
 * HMAC-SHA256(node key, topic id 0 key 0 value), where the node key is HMAC-SHA256(node secret, "quanta-node-key:" +
 * node id). The scheduler holds the node secret and derives every node's key; an operator issues a node its key with
 * {@code quanta nodes admit NODE}. A node can therefore sign only as itself, and a record moved to another topic or
 * another key no longer verifies. The topic id ({@code heartbeats}, {@code events}, {@code telemetry}) is the logical
 * one, so renaming topics keeps keys valid. Plain JDK HMAC: no library needed.
 */
public final class NodeMac {

    /** Record header carrying the MAC (32 raw bytes). */
    public static final String HEADER = "quanta-node-mac";
    private static final String ALGORITHM = "HmacSHA256";
    /** Shortest node secret accepted (bytes). */
    public static final int MIN_SECRET_BYTES = 32;

    private NodeMac() {
    }

    /** The key of node {@code nodeId} under the scheduler's node secret. */
    public static byte[] nodeKey(byte[] nodeSecret, String nodeId) {
        if (nodeSecret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the node secret must have at least " + MIN_SECRET_BYTES + " bytes");
        }
        return hmac(nodeSecret, ("quanta-node-key:" + nodeId).getBytes(StandardCharsets.UTF_8));
    }

    /** The MAC of one record. */
    public static byte[] sign(byte[] nodeKey, String topicId, byte[] key, byte[] value) {
        byte[] topic = topicId.getBytes(StandardCharsets.UTF_8);
        byte[] k = key == null ? new byte[0] : key;
        byte[] v = value == null ? new byte[0] : value;
        byte[] message = new byte[topic.length + 1 + k.length + 1 + v.length];
        System.arraycopy(topic, 0, message, 0, topic.length);
        System.arraycopy(k, 0, message, topic.length + 1, k.length);
        System.arraycopy(v, 0, message, topic.length + 2 + k.length, v.length);
        return hmac(nodeKey, message);
    }

    /** Whether {@code mac} is the record's MAC under {@code nodeKey} (constant time). */
    public static boolean verify(byte[] nodeKey, String topicId, byte[] key, byte[] value, byte[] mac) {
        return mac != null && MessageDigest.isEqual(sign(nodeKey, topicId, key, value), mac);
    }

    /** A key or secret written as hex (what {@code quanta nodes admit} prints and {@code node.auth.key} takes). */
    public static byte[] fromHex(String hex) {
        try {
            return HexFormat.of().parseHex(hex.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a hex string (" + hex.strip().length() + " characters)", e);
        }
    }

    /** Hex text of a key. */
    public static String toHex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac.doFinal(message);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
