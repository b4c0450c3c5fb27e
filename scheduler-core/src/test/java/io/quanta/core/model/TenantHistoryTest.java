package io.quanta.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TenantHistoryTest {

    @Test
    void shouldKeepEachTenantsLastJobsOldestFirst() {
        TenantHistory h = TenantHistory.empty().record("a", 1).record("b", 50).record("a", 2);

        assertThat(h.samples("a")).containsExactly(1, 2);
        assertThat(h.samples("b")).containsExactly(50);
        assertThat(h.samples("nobody")).isEmpty();
    }

    @Test
    void shouldDropATenantsOldestJobBeyondTheSampleBound() {
        TenantHistory h = TenantHistory.empty();
        for (int i = 0; i < TenantHistory.SAMPLES + 3; i++) {
            h = h.record("a", i);
        }

        double[] kept = h.samples("a");
        assertThat(kept).hasSize(TenantHistory.SAMPLES);
        assertThat(kept[0]).isEqualTo(3);
        assertThat(kept[TenantHistory.SAMPLES - 1]).isEqualTo(TenantHistory.SAMPLES + 2);
    }

    @Test
    void shouldForgetTheTenantWhoseLastJobCompletedLongestAgoBeyondTheTenantBound() {
        TenantHistory h = TenantHistory.empty().record("first", 1).record("second", 1);
        h = h.record("first", 2);
        for (int i = 0; i < TenantHistory.MAX_TENANTS - 1; i++) {
            h = h.record("t" + i, 1);
        }

        assertThat(h.tenants()).isEqualTo(TenantHistory.MAX_TENANTS);
        assertThat(h.samples("second")).as("completed least recently").isEmpty();
        assertThat(h.samples("first")).containsExactly(1, 2);
    }

    @Test
    void shouldGiveATenantsDistributionOnlyFromEnoughOfItsJobs() {
        TenantHistory h = TenantHistory.empty().record("a", 300).record("a", 100).record("b", 5);

        assertThat(h.distribution("a", 2)).get().satisfies(d -> {
            assertThat(d.samples()).containsExactly(100, 300);
            assertThat(d.gittinsIndex(0, 200)).as("one of two ends within 200: 1 / (100 + 200)").isEqualTo(1.0 / 300);
        });
        assertThat(h.distribution("b", 2)).isEmpty();
        assertThat(h.distribution("nobody", 1)).isEmpty();
    }

    @Test
    void shouldRefuseAServiceThatIsNotAFiniteNonNegativeNumber() {
        assertThatThrownBy(() -> TenantHistory.empty().record("a", Double.NaN)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> TenantHistory.empty().record("a", -1)).hasMessageContaining("-1");
    }

    @Test
    void shouldNotKeepATenantWhoseNameIsTooLong() {
        String huge = "x".repeat(TenantHistory.MAX_TENANT_CHARS + 1);

        assertThat(TenantHistory.empty().record(huge, 5).tenants()).isZero();
    }

    @Test
    void shouldNotChangeTheValueItWasRecordedOn() {
        TenantHistory before = TenantHistory.empty().record("a", 1);
        before.record("a", 2);

        assertThat(before.samples("a")).containsExactly(1);
    }

    @Test
    void shouldRoundTripWithTheServiceDistribution() {
        ServiceDistribution d = ServiceDistribution.empty(8, 7).record("a", 10).record("b", 20).record("a", 30)
                .record(40).record("c", 50);

        ServiceDistribution read = ServiceDistribution.fromBytes(d.toBytes());

        assertThat(read).isEqualTo(d);
        assertThat(read.tenants().samples("a")).containsExactly(10, 30);
        assertThat(read.samples()).containsExactly(10, 20, 30, 40, 50);
        assertThat(read.observed()).isEqualTo(5);
    }

    @Test
    void shouldReadTheEncodingWithoutTenants() throws IOException {
        ServiceDistribution read = ServiceDistribution.fromBytes(encoded(1, null, 0, 0));

        assertThat(read).isEqualTo(ServiceDistribution.of(8, 3, 100, 200));
        assertThat(read.tenants().tenants()).isZero();
    }

    @Test
    void shouldRefuseAnEncodingBeyondTheBoundsOrWithBytesAfterTheEnd() {
        byte[] good = ServiceDistribution.empty(4, 1).record("a", 1).toBytes();
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        byte[] tooMany = Arrays.copyOf(good, good.length);
        // the tenant count follows version (1), capacity (4), seed (8), observed (8), sample count (4), one sample (8)
        tooMany[33] = 0x7f;

        assertThatThrownBy(() -> ServiceDistribution.fromBytes(trailing)).hasMessageContaining("after the end");
        assertThatThrownBy(() -> ServiceDistribution.fromBytes(tooMany)).hasMessageContaining("tenants");
    }

    @Test
    void shouldRefuseAnEncodedTenantEntryBeyondItsBoundsOrWithABadValue() throws IOException {
        assertThatThrownBy(() -> ServiceDistribution.fromBytes(encoded(2, "a", TenantHistory.SAMPLES + 1, 1.0)))
                .hasMessageContaining("malformed tenant history entry");
        assertThatThrownBy(() -> ServiceDistribution.fromBytes(
                encoded(2, "x".repeat(TenantHistory.MAX_TENANT_CHARS + 1), 1, 1.0)))
                .hasMessageContaining("malformed tenant history entry");
        assertThatThrownBy(() -> ServiceDistribution.fromBytes(encoded(2, "a", 1, Double.NaN)))
                .hasMessageContaining("NaN");
        assertThat(ServiceDistribution.fromBytes(encoded(2, "a", 2, 7.0)).tenants().samples("a"))
                .containsExactly(7.0, 7.0);
    }

    /**
     * An encoding of {@code version} (capacity 8, seed 3) holding the samples 100 and 200 and, for version 2, one
     * tenant of {@code n} values, each {@code value}.
     */
    private static byte[] encoded(int version, String tenant, int n, double value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(version);
            out.writeInt(8);
            out.writeLong(3);
            out.writeLong(2);
            out.writeInt(2);
            out.writeDouble(100);
            out.writeDouble(200);
            if (version == 2) {
                out.writeInt(1);
                out.writeUTF(tenant);
                out.writeInt(n);
                for (int i = 0; i < n; i++) {
                    out.writeDouble(value);
                }
            }
        }
        return bytes.toByteArray();
    }
}
