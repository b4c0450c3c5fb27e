package io.quanta.core.model;

import java.util.Random;

/** Random samples of jobs' service for the estimates' property tests. */
final class RandomServices {

    private RandomServices() {
    }

    /**
     * 1 to {@code maxSize} whole GPU-second values below 20,000, one in {@code tieOneIn} of them exactly 500 so that
     * ties occur.
     */
    static double[] draw(Random random, int maxSize, int tieOneIn) {
        int n = 1 + random.nextInt(maxSize);
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(tieOneIn) == 0 ? 500 : Math.floor(random.nextDouble() * 20_000);
        }
        return values;
    }
}
