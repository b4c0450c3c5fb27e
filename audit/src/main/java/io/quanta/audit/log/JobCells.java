package io.quanta.audit.log;

import io.quanta.schemas.JobSubmitted;
import java.util.List;
import java.util.Optional;

/** Finds a job's submission among inbox records. */
final class JobCells {

    private JobCells() {
    }

    /** The first inbox record submitting {@code jobId}. */
    static Optional<InboxRecord> submittedIn(List<InboxRecord> inbox, String jobId) {
        return inbox.stream().filter(r -> isSubmission(r, jobId)).findFirst();
    }

    static boolean isSubmission(InboxRecord r, String jobId) {
        return r.input() != null && r.input().getInput() instanceof JobSubmitted s && s.getJobId().equals(jobId);
    }
}
