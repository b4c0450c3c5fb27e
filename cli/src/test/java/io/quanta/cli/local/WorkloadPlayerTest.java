package io.quanta.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobSubmitted;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkloadPlayerTest {

    private static final Trace TRACE = new Trace("t", List.of(new TraceJob("a", 0, 2, 600, "vc-research"),
            new TraceJob("b", 10, 1, 60, "vc-prod")));
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    /** {@code request} only builds the record: no producer is needed to check it. */
    private static WorkloadPlayer player(Optional<String> tenant) {
        return new WorkloadPlayer(TRACE, "run1-", NOW, 600, ProfileAssigner.standard(1), null,
                "quanta.jobs.submissions", tenant, Clock.systemUTC(), 0, job -> { });
    }

    @Test
    void shouldSubmitEachJobAsItsVirtualClusterWhenNoTenantIsGiven() {
        WorkloadPlayer player = player(Optional.empty());

        assertThat(TRACE.jobs()).extracting(j -> ((JobSubmitted) player.request(j, NOW).getRequest()).getTenant())
                .containsExactly("vc-research", "vc-prod");
    }

    @Test
    void shouldSubmitEveryJobAsTheAuthenticatedTenantWhenOneIsGiven() {
        WorkloadPlayer player = player(Optional.of("vision"));

        assertThat(player.tenant()).contains("vision");
        assertThat(TRACE.jobs()).extracting(j -> ((JobSubmitted) player.request(j, NOW).getRequest()).getTenant())
                .containsExactly("vision", "vision");
    }
}
