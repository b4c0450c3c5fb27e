package io.quanta.core.plan;

/**
 * Which GPUs a placement may use: only FREE ones (a start), also SOON-free ones held by suspending jobs (an
 * earmark), or also the GPUs of tentative VICTIMS (a preemption plan). Within a node, free GPUs are taken first,
 * then soon-free, then victims'.
 */
public enum Layer {
    FREE,
    SOON,
    VICTIMS
}
