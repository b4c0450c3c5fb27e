package io.quanta.topics.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NodeMacTest {

    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final byte[] KEY = "n1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VALUE = {0, 0, 0, 0, 7, 1, 2, 3};

    @Test
    void shouldVerifyWhatTheNodeSignedAndNothingChanged() {
        byte[] nodeKey = NodeMac.nodeKey(SECRET, "n1");
        byte[] mac = NodeMac.sign(nodeKey, "heartbeats", KEY, VALUE);

        assertThat(NodeMac.verify(nodeKey, "heartbeats", KEY, VALUE, mac)).isTrue();
        assertThat(NodeMac.verify(NodeMac.nodeKey(SECRET, "n2"), "heartbeats", KEY, VALUE, mac))
                .as("another node's key").isFalse();
        assertThat(NodeMac.verify(nodeKey, "events", KEY, VALUE, mac)).as("another topic").isFalse();
        assertThat(NodeMac.verify(nodeKey, "heartbeats", "n2".getBytes(StandardCharsets.UTF_8), VALUE, mac))
                .as("another key").isFalse();
        assertThat(NodeMac.verify(nodeKey, "heartbeats", KEY, new byte[] {0, 0, 0, 0, 7, 1, 2, 4}, mac))
                .as("another value").isFalse();
        assertThat(NodeMac.verify(nodeKey, "heartbeats", KEY, VALUE, null)).as("no MAC").isFalse();
    }

    @Test
    void shouldDeriveDistinctStableKeysPerNodeAndRefuseAShortSecret() {
        assertThat(NodeMac.nodeKey(SECRET, "n1")).isEqualTo(NodeMac.nodeKey(SECRET, "n1"))
                .isNotEqualTo(NodeMac.nodeKey(SECRET, "n2")).hasSize(32);
        assertThatThrownBy(() -> NodeMac.nodeKey(new byte[16], "n1")).hasMessageContaining("at least 32 bytes");
        assertThat(NodeMac.fromHex(NodeMac.toHex(SECRET))).isEqualTo(SECRET);
    }
}
