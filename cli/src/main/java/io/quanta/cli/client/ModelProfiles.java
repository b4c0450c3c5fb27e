package io.quanta.cli.client;

import io.quanta.schemas.ModelProfile;
import io.quanta.sim.profile.ModelKind;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Profile defaults for well-known model names (the simulator's {@link ModelKind} table: tensor-size skew, per-GPU
 * memory, minibatch time), so that {@code quanta submit --model vgg16} places and packs like the papers say. An unknown
 * name gets skew 0 and memory 0 (never packed) unless the user gives them.
 */
public final class ModelProfiles {

    private ModelProfiles() {
    }

    /** The profile of {@code name} (case-insensitive; {@code resnet-50} and {@code resnet50} are the same). */
    public static ModelProfile defaultsFor(String name) {
        String key = normalise(name);
        return Arrays.stream(ModelKind.values()).filter(k -> normalise(k.modelName()).equals(key)).findFirst()
                .map(ModelKind::profile)
                .orElseGet(() -> ModelProfile.newBuilder().setModelName(name).setTensorSizeSkew(0.0)
                        .setGpuMemoryMiB(0).setMinibatchMillis(null).build());
    }

    /** The model names with built-in defaults. */
    public static List<String> known() {
        return Arrays.stream(ModelKind.values()).map(ModelKind::modelName).toList();
    }

    private static String normalise(String name) {
        return name.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }
}
