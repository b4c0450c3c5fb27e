package io.quanta.bench.archfixture;

import io.quanta.bench.archfixture.leaf.CycleLeaf;

/**
 * Half of a deliberate package cycle, used only by ArchitectureTest to show that its rule catches one: this root
 * package uses a package below it, which uses this one back.
 */
public final class CycleRoot {

    private CycleRoot() {
    }

    public static String leaf() {
        return CycleLeaf.name();
    }
}
