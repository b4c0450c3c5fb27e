package io.quanta.node.archfixture;

import io.quanta.core.model.GpuId;
import io.quanta.streams.app.SchedulerApp;

/**
 * A deliberate violation of the node-connector rules, used only by ArchitectureTest to show that its rules catch
 * one: a node-connector test helper that uses the scheduler's core and its app.
 */
public final class BrokenNodeTestClass {

    private BrokenNodeTestClass() {
    }

    public static Class<?> core() {
        return GpuId.class;
    }

    public static Class<?> scheduler() {
        return SchedulerApp.class;
    }
}
