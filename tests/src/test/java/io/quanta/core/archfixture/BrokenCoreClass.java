package io.quanta.core.archfixture;

/**
 * A deliberate violation of the scheduler-core rules, used only by ArchitectureTest to show that its rules catch one:
 * it reads the wall clock and uses a Kafka class.
 */
public final class BrokenCoreClass {

    private BrokenCoreClass() {
    }

    public static long now() {
        return System.currentTimeMillis();
    }

    public static String topic() {
        return new org.apache.kafka.common.TopicPartition("t", 0).topic();
    }
}
