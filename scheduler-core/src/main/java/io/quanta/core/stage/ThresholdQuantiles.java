package io.quanta.core.stage;

import io.quanta.core.model.ServiceEstimate;
import java.util.List;
import java.util.Optional;

/**
 * Queue thresholds learned from the cell's own jobs: threshold {@code i} is quantile {@code i} of their service
 * (GPU-seconds), as the completed jobs or, with {@code quanta.service-estimate=censored}, the completed and alive jobs
 * estimate it ({@link io.quanta.core.model.CensoredService}). Tiresias' thresholds (3,250 and 7,200 GPU-s) were
 * fitted to one cluster's job sizes; on Philly windows whose jobs are ten times smaller or larger, the same numbers
 * put almost every job in one queue, and the queues stop telling short jobs from long ones. Quantiles keep the
 * queues' shares of jobs wherever the sizes lie.
 * Until {@code minSamples} jobs completed (as for the Gittins index) the configured thresholds hold.
 *
 * @param quantiles  strictly ascending, each in (0, 1); empty = always the configured thresholds
 * @param minSamples completed jobs needed before the learned thresholds replace the configured ones
 */
public record ThresholdQuantiles(List<Double> quantiles, int minSamples) {

    public ThresholdQuantiles {
        quantiles = List.copyOf(quantiles);
    }

    /** Whether thresholds are learned at all. */
    public boolean enabled() {
        return !quantiles.isEmpty();
    }

    /**
     * The thresholds learned from a cell whose jobs' service is estimated by {@code learned}: its quantiles, at least
     * 1 GPU-s apart so that they stay strictly ascending when many jobs share one size; empty while it holds fewer
     * than {@code minSamples} completed jobs or when nothing is learned (the configured thresholds hold).
     */
    public Optional<double[]> thresholds(ServiceEstimate learned) {
        if (!enabled() || learned.size() < minSamples) {
            return Optional.empty();
        }
        double[] thresholds = new double[quantiles.size()];
        double previous = 0;
        for (int i = 0; i < thresholds.length; i++) {
            thresholds[i] = Math.max(learned.quantile(quantiles.get(i)), previous + 1);
            previous = thresholds[i];
        }
        return Optional.of(thresholds);
    }
}
