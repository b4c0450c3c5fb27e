package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.util.Comparator;
import java.util.SortedMap;

/** Time-slicing order (Gandiva): the job that has waited longest since it was last queued goes first. */
public final class RoundRobinRanking implements Ranking {

    @Override
    public Comparator<Job> order() {
        return RoundRobinRanking::compare;
    }

    private static int compare(Job a, Job b) {
        int byWait = Double.compare(b.waitingSeconds(), a.waitingSeconds());
        if (byWait != 0) {
            return byWait;
        }
        int bySeq = Long.compare(a.arrivalSeq(), b.arrivalSeq());
        return bySeq != 0 ? bySeq : a.id().compareTo(b.id());
    }

    @Override
    public String describe(Job job) {
        return "waited " + Text.num(job.waitingSeconds()) + " s";
    }

    @Override
    public SortedMap<String, String> details(Job job) {
        return Text.details("waitingSeconds", Text.num(job.waitingSeconds()));
    }
}
