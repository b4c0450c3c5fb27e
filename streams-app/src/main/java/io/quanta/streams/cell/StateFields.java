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
 * Copies a state record's stored fields (every field that is not static or transient) to and from the Avro record
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

    private record Mapped(Field field, int position, Conversion conversion) {
    }

    private final Supplier<R> newRecord;
    private final Supplier<S> newStored;
    private final List<Mapped> fields = new ArrayList<>();

    StateFields(Class<R> type, Supplier<R> newRecord, Schema schema, Supplier<S> newStored,
                Map<String, Conversion> conversions) {
        this.newRecord = newRecord;
        this.newStored = newStored;
        Map<String, Field> byName = new HashMap<>();
        for (Field field : type.getDeclaredFields()) {
            int m = field.getModifiers();
            if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
                field.setAccessible(true);
                byName.put(field.getName(), field);
            }
        }
        for (Schema.Field f : schema.getFields()) {
            Field field = byName.remove(f.name());
            if (field == null) {
                throw new IllegalStateException(schema.getFullName() + "." + f.name() + " has no field in "
                        + type.getSimpleName());
            }
            fields.add(new Mapped(field, f.pos(), conversions.getOrDefault(f.name(), defaultConversion(field))));
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
                stored.put(m.position(), m.conversion().toStored().apply(m.field().get(record)));
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        return stored;
    }

    /** A record with the fields of {@code stored}. */
    R fromStored(S stored) {
        R record = newRecord.get();
        try {
            for (Mapped m : fields) {
                m.field().set(record, m.conversion().fromStored().apply(stored.get(m.position())));
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        return record;
    }

    /** Enums as their names; lists and maps copied into the mutable, sorted kinds the records work on. */
    private static Conversion defaultConversion(Field field) {
        Class<?> t = field.getType();
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
