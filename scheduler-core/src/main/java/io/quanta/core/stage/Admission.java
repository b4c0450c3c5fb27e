package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * Admission stage: rejects queued jobs that can never run in this cell (no GPUs asked, more GPUs than the cell has
 * of the requested type, or an unknown GPU type) and returns the others in their input order.
 */
public final class Admission {

    private final String policy;

    public Admission(String policy) {
        this.policy = policy;
    }

    public List<Job> admit(List<Job> queued, Allocation alloc) {
        CellIndex cell = alloc.cell();
        List<Job> admitted = new ArrayList<>(queued.size());
        for (Job job : queued) {
            int capacity = cell.totalGpus(job.gpuType());
            String type = job.gpuType().map(t -> " of type " + t).orElse("");
            if (job.numGpus() < 1) {
                alloc.reject(job, policy + ": admission: job " + job.id() + " asks for " + job.numGpus()
                        + " GPUs; a job needs at least 1", Text.details("numGpus", Integer.toString(job.numGpus())));
            } else if (job.numGpus() > capacity) {
                alloc.reject(job, policy + ": admission: job " + job.id() + " needs " + job.numGpus() + " GPUs" + type
                                + " but the cell has only " + capacity,
                        Text.details("numGpus", Integer.toString(job.numGpus()), "cellGpus", Integer.toString(capacity)));
            } else {
                admitted.add(job);
            }
        }
        return admitted;
    }
}
