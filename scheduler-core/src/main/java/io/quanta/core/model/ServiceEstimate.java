package io.quanta.core.model;

/**
 * What a policy reads of a distribution of jobs' total service (GPU-seconds): the 2D-Gittins index and quantiles.
 * {@link ServiceDistribution} is the completed jobs' sample; {@link CensoredService} adds the jobs still running as
 * lower bounds of their own service.
 */
public interface ServiceEstimate {

    /**
     * The 2D-Gittins index {@code G(a, D) = P(S - a <= D | S > a) / E[min(S - a, D) | S > a]} of a job with attained
     * service {@code a} and look-ahead {@code D} ({@code Double.POSITIVE_INFINITY} for the last queue). Higher runs
     * first; 0 when no mass lies above {@code a} or {@code D <= 0}.
     */
    double gittinsIndex(double attained, double lookAhead);

    /**
     * The Gittins index proper, {@code max over D > 0 of G(a, D)}: the best chance of finishing per unit of service
     * over every look-ahead, not the one to a queue's next threshold. Between two held values {@code G(a, D)} only
     * falls as {@code D} grows (the chance is fixed, the expected service grows), so the largest lies at a look-ahead
     * that ends at a held value above {@code a}, and one scan of those values finds it. 0 when no mass lies above
     * {@code a}. Two jobs' indices compare whatever their queues, which the threshold look-ahead's do not: a job
     * whose every like job ran past its queue's next threshold has {@code G(a, D) = 0} there, however soon it ends.
     */
    double bestIndex(double attained);

    /** True when some mass lies above {@code attained}: the estimate says how much such a job has left. */
    boolean hasSampleAbove(double attained);

    /**
     * The {@code q}-quantile: the smallest value with at least a share {@code q} of the mass at or below it.
     *
     * @throws IllegalArgumentException when {@code q} is not in (0, 1)
     * @throws IllegalStateException when the estimate holds nothing
     */
    double quantile(double q);

    /** The completed jobs this estimate was learned from that it holds (at most the sample's capacity). */
    int size();

    /** Refuses a quantile's share outside (0, 1), for {@link #quantile}. */
    static void checkQuantile(double q) {
        if (!(q > 0 && q < 1)) {
            throw new IllegalArgumentException("quantile must be in (0, 1), got " + q);
        }
    }
}
