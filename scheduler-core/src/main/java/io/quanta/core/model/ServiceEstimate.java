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
