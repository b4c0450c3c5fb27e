package io.quanta.streams.cell;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Copies a state record's components to and from the Avro record of its schema, by name, building the state record
 * through its canonical constructor: a field exists once, in the record and in its schema, and nothing lists it
 * again. The mapping is checked when it is built, so a field added to a record without its schema (or the other way
 * round) fails the first use, with its name, instead of being lost silently. Written here because Avro's reflect data
 * cannot map records with converted fields (enums kept as names, GPU ids as names, nested records), and a
 * hand-written copy per field was the kind of list that lost fields.
 *
 * @param <R> the state record (e.g. {@link JobRecord})
 * @param <S> the generated Avro class of its schema
 */
final class StateFields<R extends Record, S extends SpecificRecordBase> {

    /** How one field's value is held in the record and in the schema's record. */
    record Conversion(Function<Object, Object> toStored, Function<Object, Object> fromStored) {

        static final Conversion SAME = new Conversion(v -> v, v -> v);
    }

    /** A stored field: the index of its component ({@code slot}) and of its field in the schema. */
    private record Mapped(int slot, Class<?> type, int position, Conversion conversion) {
    }

    private final Supplier<S> newStored;
    private final Constructor<R> canonical;
    private final Method[] accessors;
    private final List<Mapped> fields = new ArrayList<>();

    /** The mapping of a Java record (its components), built through its canonical constructor. */
    static <R extends Record, S extends SpecificRecordBase> StateFields<R, S> ofRecord(
            Class<R> type, Schema schema, Supplier<S> newStored, Map<String, Conversion> conversions) {
        return new StateFields<>(type, schema, newStored, conversions);
    }

    private StateFields(Class<R> type, Schema schema, Supplier<S> newStored, Map<String, Conversion> conversions) {
        this.newStored = newStored;
        RecordComponent[] components = type.getRecordComponents();
        try {
            canonical = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type + " has no canonical constructor", e);
        }
        canonical.setAccessible(true);
        Map<String, Mapped> byName = new HashMap<>();
        accessors = new Method[components.length];
        for (int i = 0; i < components.length; i++) {
            accessors[i] = components[i].getAccessor();
            accessors[i].setAccessible(true);
            byName.put(components[i].getName(), new Mapped(i, components[i].getType(), -1, null));
        }
        for (Schema.Field f : schema.getFields()) {
            Mapped held = byName.remove(f.name());
            if (held == null) {
                throw new IllegalStateException(schema.getFullName() + "." + f.name() + " has no field in "
                        + type.getSimpleName());
            }
            fields.add(new Mapped(held.slot(), held.type(), f.pos(),
                    conversions.getOrDefault(f.name(), defaultConversion(held.type()))));
        }
        if (!byName.isEmpty()) {
            throw new IllegalStateException(type.getSimpleName() + " fields " + new TreeMap<>(byName).keySet()
                    + " are not in " + schema.getFullName() + ": add them to the schema (with a default)");
        }
    }

    /** The schema's record holding {@code record}'s fields. */
    S toStored(R record) {
        S stored = newStored.get();
        try {
            for (Mapped m : fields) {
                stored.put(m.position(), m.conversion().toStored().apply(accessors[m.slot()].invoke(record)));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return stored;
    }

    /** A record with the fields of {@code stored}. */
    R fromStored(S stored) {
        Object[] args = new Object[accessors.length];
        for (Mapped m : fields) {
            args[m.slot()] = m.conversion().fromStored().apply(stored.get(m.position()));
        }
        try {
            return canonical.newInstance(args);
        } catch (InvocationTargetException e) {
            // the record refused the values (its compact constructor): that failure, not the reflection's
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Enums as their names; lists and maps as plain Java copies (the records make their own immutable ones). */
    private static Conversion defaultConversion(Class<?> t) {
        if (t.isEnum()) {
            return new Conversion(v -> ((Enum<?>) v).name(), v -> enumNamed(t, (String) v));
        } else if (t == List.class) {
            return new Conversion(v -> v, v -> new ArrayList<>((List<?>) v));
        } else if (t == Map.class) {
            return new Conversion(v -> v, v -> new TreeMap<>((Map<?, ?>) v));
        }
        return Conversion.SAME;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumNamed(Class<?> type, String name) {
        return Enum.valueOf((Class<? extends Enum>) type, name);
    }
}
