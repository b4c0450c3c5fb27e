package io.quanta.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobListTest {

    private static Job job(String id) {
        return Job.builder(id).build();
    }

    @Test
    void shouldSortAndDropARepeatedId() {
        JobList list = JobList.of(List.of(job("c"), job("a"), job("b"), job("a")));
        assertThat(list).extracting(Job::id).containsExactly("a", "b", "c");
    }

    @Test
    void shouldInsertInIdOrderReplaceByIdAndRemove() {
        JobList list = JobList.of(List.of(job("b"), job("d")));
        assertThat(list.with(job("c")).with(job("a")).with(job("e"))).extracting(Job::id)
                .containsExactly("a", "b", "c", "d", "e");
        Job queuedLonger = Job.builder("b").waitingSeconds(5).build();
        JobList replaced = list.with(queuedLonger);
        assertThat(replaced).containsExactly(queuedLonger, list.get(1));
        assertThat(list.get(0).waitingSeconds()).as("the original is unchanged").isZero();
        assertThat(list.without("b")).extracting(Job::id).containsExactly("d");
        assertThat(list.without("x")).isSameAs(list);
        assertThat(list.with(list.get(0))).isSameAs(list);
    }

    @Test
    void shouldRefuseViewsOfOtherJobs() {
        JobList list = JobList.of(List.of(job("a"), job("b")));
        assertThatThrownBy(() -> list.withViews(i -> i == 0 ? list.get(0) : job("c")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected b");
        Job waitedLonger = Job.builder("b").waitingSeconds(3).build();
        JobList moved = list.withViews(i -> i == 1 ? waitedLonger : list.get(i));
        assertThat(moved).containsExactly(list.get(0), waitedLonger);
        assertThat(list.get(1).waitingSeconds()).as("the original is unchanged").isZero();
        assertThat(list.withViews(list::get)).as("no view changed").isSameAs(list);
    }

    @Test
    void shouldBeKeptByASnapshotAndEqualToAPlainList() {
        JobList list = JobList.of(List.of(job("a"), job("b")));
        ClusterSnapshot snapshot = ClusterSnapshot.of(Instant.EPOCH, List.of(), list);
        assertThat(snapshot.jobs()).isSameAs(list);
        assertThat(ClusterSnapshot.of(Instant.EPOCH, List.of(), List.of(job("b"), job("a"))))
                .isEqualTo(snapshot);
        assertThatThrownBy(() -> ClusterSnapshot.of(Instant.EPOCH, List.of(), List.of(job("a"), job("a"))))
                .hasMessageContaining("appears twice");
        assertThatThrownBy(() -> list.add(job("c"))).isInstanceOf(UnsupportedOperationException.class);
    }
}
