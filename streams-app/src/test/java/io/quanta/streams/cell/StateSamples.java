package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.JobState;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * State records with every stored field set to a value of its own (never the field's default), and a field-by-field
 * comparison: a field that the encoding forgets to write or read shows up as a difference, whatever its name.
 * Reflection on purpose: a list written by hand would be one more place to forget the new field.
 */
final class StateSamples {

    private StateSamples() {
    }

    static JobRecord job() {
        return fill(JobRecord.class, Map.of("state", JobState.SUSPENDING, "throughput", Double.NaN));
    }

    /**
     * A job as a submission leaves it, with the unset values the sample above never holds (nulls, NaN, -1, empty
     * lists) and an environment given out of order.
     */
    static JobRecord queuedJob() {
        JobRecord.Draft job = new JobRecord.Draft();
        job.jobId = "j|1";
        job.cellId = "cell-0";
        job.tenant = "vision";
        job.numGpus = 4;
        job.gpuType = null;
        job.modelName = "resnet50";
        job.tensorSizeSkew = 0.25;
        job.minibatchMillis = 12.5;
        job.expectedDurationSeconds = null;
        job.command = List.of("python", "train.py");
        job.env = new TreeMap<>(Map.of("B", "2", "A", "1", "C", "3"));
        job.attainedBase = 1234.5678901234;
        job.baselineThroughput = 3.3;
        job.pendingPeerEnds = List.of("n2");
        job.sourceOffset = 42;
        return job.build();
    }

    static NodeRecord node() {
        return fill(NodeRecord.class, Map.of("gpus", List.of(new NodeRecord.GpuRecord(0, "V100", 16_384, true, null),
                new NodeRecord.GpuRecord(1, "V100", 16_384, false, "ECC error"))));
    }

    static AssignmentRecord assignment() {
        return fill(AssignmentRecord.class, Map.of("gpus", List.of(GpuId.parse("n1/0"), GpuId.parse("n1/1")),
                "reserved", List.of(GpuId.parse("n2/3"))));
    }

    static CellMeta meta() {
        return fill(CellMeta.class, Map.of());
    }

    /** The stored fields (not static, not transient) that differ between {@code a} and {@code b}, with both values. */
    static List<String> differences(Object a, Object b) {
        List<String> out = new ArrayList<>();
        for (Field field : storedFields(a.getClass())) {
            Object x = get(field, a);
            Object y = get(field, b);
            if (!Objects.equals(x, y)) {
                out.add(field.getName() + ": " + x + " != " + y);
            }
        }
        return out;
    }

    static List<Field> storedFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Field field : type.getDeclaredFields()) {
            int m = field.getModifiers();
            if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                field.setAccessible(true);
                fields.add(field);
            }
        }
        return fields;
    }

    /**
     * A Java record with a sample value for each component (its name and position in the record make it differ from
     * every other component's) except those {@code given}.
     */
    private static <R extends Record> R fill(Class<R> type, Map<String, Object> given) {
        java.lang.reflect.RecordComponent[] components = type.getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                String name = components[i].getName();
                types[i] = components[i].getType();
                args[i] = given.containsKey(name) ? given.get(name) : valueFor(type.getDeclaredField(name), i + 1);
            }
            java.lang.reflect.Constructor<R> canonical = type.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return canonical.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object valueFor(Field field, int n) {
        Class<?> t = field.getType();
        String name = field.getName();
        if (t == String.class) {
            return name + "-" + n;
        } else if (t == int.class || t == Integer.class) {
            return 100 + n;
        } else if (t == long.class || t == Long.class) {
            return 1_000_000_000_000L + n;
        } else if (t == double.class || t == Double.class) {
            return n + 0.125;
        } else if (t == boolean.class) {
            return true;
        } else if (t == JobState.class) {
            return JobState.RUNNING;
        } else if (t == List.class && elementType(field) == String.class) {
            return List.of(name + "-a", name + "-b");
        } else if (t == Map.class) {
            return new TreeMap<>(Map.of(name + "-k1", "v1", name + "-k2", "v2"));
        } else if (t == List.class) {
            return List.of(); // set by the caller
        }
        throw new IllegalStateException("no sample value for " + field + ": add one here");
    }

    private static Class<?> elementType(Field field) {
        if (field.getGenericType() instanceof ParameterizedType p
                && p.getActualTypeArguments()[0] instanceof Class<?> c) {
            return c;
        }
        return Object.class;
    }

    private static Object get(Field field, Object target) {
        try {
            return field.get(target);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
