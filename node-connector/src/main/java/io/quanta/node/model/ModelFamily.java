package io.quanta.node.model;

import java.util.Locale;

/**
 * Coarse family of a DNN model, by its name in the {@code ModelProfile}; the interference table and the default
 * minibatch times are given per family.
 */
public enum ModelFamily {
    /** Recurrent language models (LSTM, GRU, "lm"): Gandiva's language-model jobs. */
    LANGUAGE,
    /** Attention models (transformer, BERT, GPT). */
    TRANSFORMER,
    /** ResNet family. */
    RESNET,
    /** VGG family: large fully connected tensors, highly skewed (Tiresias). */
    VGG,
    /** AlexNet. */
    ALEXNET,
    /** Inception and GoogLeNet. */
    INCEPTION,
    /** Anything else. */
    OTHER;

    /** The family of a model name such as {@code resnet50}, {@code VGG16}, {@code lstm-lm}; never null. */
    public static ModelFamily of(String modelName) {
        if (modelName == null) {
            return OTHER;
        }
        String name = modelName.toLowerCase(Locale.ROOT);
        if (name.startsWith("resnet")) {
            return RESNET;
        }
        if (name.startsWith("vgg")) {
            return VGG;
        }
        if (name.startsWith("alexnet")) {
            return ALEXNET;
        }
        if (name.startsWith("inception") || name.startsWith("googlenet")) {
            return INCEPTION;
        }
        if (name.contains("transformer") || name.startsWith("bert") || name.startsWith("gpt")) {
            return TRANSFORMER;
        }
        if (name.contains("lstm") || name.contains("gru") || name.contains("rnn") || name.equals("lm")
                || name.startsWith("lm-") || name.startsWith("lm_") || name.contains("language")) {
            return LANGUAGE;
        }
        return OTHER;
    }
}
