package io.quanta.bench.archfixture.leaf;

import io.quanta.bench.archfixture.CycleRoot;

/** The other half of the package cycle of {@link CycleRoot}. */
public final class CycleLeaf {

    private CycleLeaf() {
    }

    public static String name() {
        return CycleRoot.class.getSimpleName() + "/leaf";
    }
}
