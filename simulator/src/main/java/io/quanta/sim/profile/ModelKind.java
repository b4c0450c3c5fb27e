package io.quanta.sim.profile;

import io.quanta.schemas.ModelProfile;

/**
 * The model kinds a simulated job can train, with the profile the simulator gives it. Skew = size of the largest
 * tensor over the model's total parameter count, computed from the published architectures (see
 * {@code docs/evaluation.md}); memory and minibatch time are our round figures for one 16 GB GPU at the usual batch
 * size; the interference between kinds comes from the node connector's throughput model (Gandiva's measured pairs).
 */
public enum ModelKind {
    /** ResNet-50: 25.6 M parameters, largest tensor 2.4 M (a 3x3x512x512 convolution): skew 0.09. */
    RESNET50("resnet50", 0.09, 6_000, 200.0),
    /** VGG-16: 138 M parameters, largest tensor fc6 = 102.8 M: skew 0.74 (Tiresias' example of a skewed model). */
    VGG16("vgg16", 0.74, 8_000, 250.0),
    /** Inception-v3: 23.8 M parameters, largest tensor the 2048x1000 classifier = 2.0 M: skew 0.09. */
    INCEPTION3("inception3", 0.09, 6_500, 300.0),
    /** AlexNet: 61 M parameters, largest tensor fc6 = 37.7 M: skew 0.62. */
    ALEXNET("alexnet", 0.62, 3_000, 60.0),
    /**
     * Two-layer LSTM language model (PTB "large": 66 M parameters; each layer's fused kernel 3000 x 6000 = 18 M,
     * embedding and softmax 15 M each): skew 0.27.
     */
    LSTM_LM("lstm-lm", 0.27, 4_000, 100.0),
    /** Transformer base (65 M parameters, shared 37k x 512 embedding = 19 M): skew 0.29. */
    TRANSFORMER("transformer", 0.29, 10_000, 300.0);

    private final String modelName;
    private final double skew;
    private final int gpuMemoryMiB;
    private final double minibatchMillis;

    ModelKind(String modelName, double skew, int gpuMemoryMiB, double minibatchMillis) {
        this.modelName = modelName;
        this.skew = skew;
        this.gpuMemoryMiB = gpuMemoryMiB;
        this.minibatchMillis = minibatchMillis;
    }

    /** The model name carried in the profile (the node connector maps it to a model family). */
    public String modelName() {
        return modelName;
    }

    /** Tensor-size skew, 0..1. */
    public double skew() {
        return skew;
    }

    /** The profile a job of this kind is submitted with. */
    public ModelProfile profile() {
        return ModelProfile.newBuilder()
                .setModelName(modelName)
                .setTensorSizeSkew(skew)
                .setGpuMemoryMiB(gpuMemoryMiB)
                .setMinibatchMillis(minibatchMillis)
                .build();
    }
}
