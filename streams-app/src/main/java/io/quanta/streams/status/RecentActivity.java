package io.quanta.streams.status;

import io.quanta.streams.status.ActivityLog.DeadLetterEntry;
import io.quanta.streams.status.ActivityLog.Timeline;
import java.util.List;
import java.util.Optional;

/**
 * What the status API serves beyond the stores: a job's recent timeline and the latest dead letters, as the scheduler
 * wrote them to its topics. Read-only and bounded.
 */
public interface RecentActivity {

    /** The job's recent status changes, decisions and throughput; empty when nothing about it was seen. */
    Optional<Timeline> timeline(String jobId);

    /** The newest dead letters first, at most {@code limit}. */
    List<DeadLetterEntry> deadLetters(int limit);

    /** No recent activity (an API without a tail, e.g. in tests). */
    static RecentActivity none() {
        return new RecentActivity() {
            @Override
            public Optional<Timeline> timeline(String jobId) {
                return Optional.empty();
            }

            @Override
            public List<DeadLetterEntry> deadLetters(int limit) {
                return List.of();
            }
        };
    }
}
