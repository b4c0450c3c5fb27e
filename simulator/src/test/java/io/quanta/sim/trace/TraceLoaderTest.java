package io.quanta.sim.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TraceLoaderTest {

    @Test
    void shouldReadColumnsByHeaderNameWhenTheyAreReordered() {
        Trace trace = TraceLoader.parse("t", "duration_s,extra,num_gpus,job_id,virtual_cluster,submit_time_s\n"
                + "100,x,2,j1,vc,0\n\n300,y,1,j2,,5\n");

        assertThat(trace.jobs()).containsExactly(new TraceJob("j1", 0, 2, 100, "vc"),
                new TraceJob("j2", 5, 1, 300, TraceLoader.DEFAULT_TENANT));
        assertThat(trace.totalGpuSeconds()).isEqualTo(500.0);
        assertThat(trace.lastSubmitSeconds()).isEqualTo(5);
    }

    @Test
    void shouldNameTheMissingColumnWhenTheHeaderLacksOne() {
        assertThatThrownBy(() -> TraceLoader.parse("t", "job_id,submit_time_s,duration_s\nj,0,1\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("num_gpus");
    }

    @Test
    void shouldNameTheLineWhenAValueIsNotANumber() {
        assertThatThrownBy(() -> TraceLoader.parse("t", "job_id,submit_time_s,num_gpus,duration_s\nj,0,two,1\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2")
                .hasMessageContaining("num_gpus");
    }

    @Test
    void shouldRefuseATraceNotSortedBySubmitTime() {
        assertThatThrownBy(() -> TraceLoader.parse("t", "job_id,submit_time_s,num_gpus,duration_s\na,5,1,1\nb,4,1,1\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not sorted");
    }

    @Test
    void shouldKeepTheFirstJobsWhenLimited() {
        Trace trace = TraceLoader.parse("t", "job_id,submit_time_s,num_gpus,duration_s\na,0,1,1\nb,1,1,1\nc,2,1,1\n");

        assertThat(trace.first(2).jobs()).extracting(TraceJob::jobId).containsExactly("a", "b");
        assertThat(trace.first(5)).isSameAs(trace);
    }
}
