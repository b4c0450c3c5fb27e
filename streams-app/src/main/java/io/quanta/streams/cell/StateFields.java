package io.quanta.streams.cell;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Copies a state record's stored fields (a Java record's components, or every field of a mutable class that is not
 * static or transient) to and from the Avro record
 * of its schema, by name: a field exists once, in the record and in its schema, and nothing lists it again. The
 * mapping is checked when it is built, so a field added to a record without its schema (or the other way round)
 * fails the first use, with its name, instead of being lost silently. Written here because Avro's reflect data
 * cannot map package-private mutable classes with converted fields (enums kept as names, nested records), and a
 * hand-written copy per field was the kind of list that lost fields.
 *
 * @param <R> the state record (e.g. {@link JobRecord})
 * @param <S> the generated Avro class of its schema
 */
final class StateFields<R, S extends SpecificRecordBase> {

    /** How one field's value is held in the record and in the schema's record. */
    record Conversion(Function<Object, Object> toStored, Function<Object, Object> fromStored) {

        static final Conversion SAME = new Conversion(v -> v, v -> v);
    }

    /** A stored field: where the record keeps it (its field, or {@code slot}: its component's index) and the schema. */
    private record Mapped(Field field, int slot, Class<?> type, int position, Conversion conversion) {
    }

    private final Supplier<R> newRecord;
    private final Supplier<S> newStored;
    /** A Java record's canonical constructor and component accessors (null for a class of mutable fields). */
    private final java.lang.reflect.Constructor<R> canonical;
    private final java.lang.reflect.Method[] accessors;
    private final List<Mapped> fields = new ArrayList<>();

    /** The mapping of a class of mutable fields (every field that is not static or transient). */
    StateFields(Class<R> type, Supplier<R> newRecord, Schema schema, Supplier<S> newStored,
                Map<String, Conversion> conversions) {
        this(type, newRecord, null, schema, newStored, conversions);
    }

    /** The mapping of a Java record (its components), built through its canonical constructor. */
    static <R extends Record, S extends SpecificRecordBase> StateFields<R, S> ofRecord(
            Class<R> type, Schema schema, Supplier<S> newStored, Map<String, Conversion> conversions) {
        java.lang.reflect.RecordComponent[] components = type.getRecordComponents();
        try {
            java.lang.reflect.Constructor<R> canonical = type.getDeclaredConstructor(
                    java.util.Arrays.stream(components).map(java.lang.reflect.RecordComponent::getType)
                            .toArray(Class<?>[]::new));
            return new StateFields<>(type, null, canonical, schema, newStored, conversions);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type + " has no canonical constructor", e);
        }
    }

    private StateFields(Class<R> type, Supplier<R> newRecord, java.lang.reflect.Constructor<R> canonical,
                        Schema schema, Supplier<S> newStored, Map<String, Conversion> conversions) {
        this.newRecord = newRecord;
        this.newStored = newStored;
        this.canonical = canonical;
        Map<String, Mapped> byName = new HashMap<>();
        if (canonical != null) {
            java.lang.reflect.RecordComponent[] components = type.getRecordComponents();
            accessors = new java.lang.reflect.Method[components.length];
            for (int i = 0; i < components.length; i++) {
                accessors[i] = components[i].getAccessor();
                accessors[i].setAccessible(true);
                byName.put(components[i].getName(), new Mapped(null, i, components[i].getType(), -1, null));
            }
            canonical.setAccessible(true);
        } else {
            accessors = null;
            for (Field field : type.getDeclaredFields()) {
                int m = field.getModifiers();
                if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                    field.setAccessible(true);
                    byName.put(field.getName(), new Mapped(field, -1, field.getType(), -1, null));
                }
            }
        }
        for (Schema.Field f : schema.getFields()) {
            Mapped held = byName.remove(f.name());
            if (held == null) {
                throw new IllegalStateException(schema.getFullName() + "." + f.name() + " has no field in "
                        + type.getSimpleName());
            }
            fields.add(new Mapped(held.field(), held.slot(), held.type(), f.pos(),
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
                Object value = m.field() != null ? m.field().get(record) : accessors[m.slot()].invoke(record);
                stored.put(m.position(), m.conversion().toStored().apply(value));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return stored;
    }

    /** A record with the fields of {@code stored}. */
    R fromStored(S stored) {
        try {
            if (canonical != null) {
                Object[] args = new Object[accessors.length];
                for (Mapped m : fields) {
                    args[m.slot()] = m.conversion().fromStored().apply(stored.get(m.position()));
                }
                try {
                    return canonical.newInstance(args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    // the record refused the values (its compact constructor): that failure, not the reflection's
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            }
            R record = newRecord.get();
            for (Mapped m : fields) {
                m.field().set(record, m.conversion().fromStored().apply(stored.get(m.position())));
            }
            return record;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Enums as their names; lists and maps copied into the mutable, sorted kinds the records work on. */
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
