package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.util.Comparator;
import java.util.SortedMap;

/** Arrival order (YARN-CS): the job that arrived first goes first. */
public final class FifoRanking implements Ranking {

    @Override
    public Comparator<Job> order() {
        return Ranking.byArrival();
    }

    @Override
    public String describe(Job job) {
        return "arrival #" + job.arrivalSeq();
    }

    @Override
    public SortedMap<String, String> details(Job job) {
        return Text.details("arrivalSeq", Long.toString(job.arrivalSeq()));
    }
}
