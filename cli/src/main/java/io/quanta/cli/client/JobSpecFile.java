package io.quanta.cli.client;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a {@link JobSpec} from a YAML or JSON file (JSON is YAML, so one parser reads both):
 *
 * <pre>
 * id: bert-large-42          # optional; generated when absent
 * tenant: nlp
 * gpus: 8
 * gpuType: V100              # optional
 * model: transformer         # or {name: my-model, skew: 0.3, memoryMiB: 12000}
 * command: [python, train.py, --epochs, "3"]   # or one string, run with sh -c
 * env: {DATA_DIR: /data}
 * duration: 3600             # optional: expected seconds at full speed (simulated nodes need it)
 * priority: 0
 * maxRetries: 3
 * </pre>
 *
 * Unknown fields and wrong types are errors naming the field; values are checked later by {@link JobSpec#problems()}.
 */
public final class JobSpecFile {

    private static final Set<String> FIELDS = Set.of("id", "tenant", "gpus", "gputype", "model", "command", "env",
            "duration", "priority", "maxretries");
    private static final Set<String> MODEL_FIELDS = Set.of("name", "skew", "memorymib");

    private JobSpecFile() {
    }

    /** Parses {@code file}; {@link JobSpecException} names the file and what is wrong. */
    public static JobSpec read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new JobSpecException("cannot read job file " + file + ": " + e.getMessage());
        }
        return parse(file.toString(), text);
    }

    /** Parses YAML or JSON text; {@code source} names it in errors. */
    public static JobSpec parse(String source, String text) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(text);
        } catch (JacksonException e) {
            throw new JobSpecException(source + " is not valid YAML or JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new JobSpecException(source + " must hold one mapping (fields id, tenant, gpus, model, command...)");
        }
        List<String> errors = new ArrayList<>();
        unknown(root, FIELDS, "", errors);
        Fields f = new Fields(root, errors);
        JsonNode model = root.get("model");
        String modelName = null;
        OptionalDouble skew = OptionalDouble.empty();
        Optional<Integer> memory = Optional.empty();
        if (model != null && model.isObject()) {
            unknown(model, MODEL_FIELDS, "model.", errors);
            Fields m = new Fields(model, errors);
            modelName = m.text("name", "model.name").orElse(null);
            skew = m.number("skew", "model.skew").map(OptionalDouble::of).orElse(OptionalDouble.empty());
            memory = m.integer("memoryMiB", "model.memoryMiB");
        } else {
            modelName = f.text("model", "model").orElse(null);
        }
        JobSpec spec = new JobSpec(f.text("id", "id"), f.text("tenant", "tenant").orElse(null),
                f.integer("gpus", "gpus").orElse(0), f.text("gpuType", "gpuType"), modelName, skew, memory,
                f.command(), f.env(), f.integer("duration", "duration").map(d -> OptionalLong.of(d))
                        .orElse(OptionalLong.empty()), f.integer("priority", "priority").orElse(0),
                f.integer("maxRetries", "maxRetries").orElse(3));
        if (!errors.isEmpty()) {
            throw new JobSpecException(source + ": " + String.join("; ", errors));
        }
        return spec;
    }

    private static void unknown(JsonNode node, Set<String> known, String prefix, List<String> errors) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            String name = it.next();
            if (!known.contains(name.toLowerCase(Locale.ROOT))) {
                errors.add("unknown field '" + prefix + name + "'");
            }
        }
    }

    /** Typed access to the fields of one mapping, collecting type errors. */
    private record Fields(JsonNode node, List<String> errors) {

        JsonNode get(String name) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isNull()) {
                    return e.getValue();
                }
            }
            return null;
        }

        Optional<String> text(String name, String label) {
            JsonNode v = get(name);
            if (v == null) {
                return Optional.empty();
            }
            if (!v.isValueNode()) {
                errors.add(label + " must be a single value");
                return Optional.empty();
            }
            return Optional.of(v.asText());
        }

        Optional<Integer> integer(String name, String label) {
            JsonNode v = get(name);
            if (v == null) {
                return Optional.empty();
            }
            if (!v.canConvertToInt() || !(v.isIntegralNumber() || v.isTextual() && v.asText().matches("-?\\d+"))) {
                errors.add(label + " must be a whole number, got '" + v.asText() + "'");
                return Optional.empty();
            }
            return Optional.of(v.isTextual() ? Integer.parseInt(v.asText()) : v.intValue());
        }

        Optional<Double> number(String name, String label) {
            JsonNode v = get(name);
            if (v == null) {
                return Optional.empty();
            }
            if (!v.isNumber()) {
                errors.add(label + " must be a number, got '" + v.asText() + "'");
                return Optional.empty();
            }
            return Optional.of(v.doubleValue());
        }

        List<String> command() {
            JsonNode v = get("command");
            if (v == null) {
                return List.of();
            }
            if (v.isTextual()) {
                return List.of("sh", "-c", v.asText());
            }
            if (!v.isArray()) {
                errors.add("command must be a list of strings or one string");
                return List.of();
            }
            List<String> argv = new ArrayList<>();
            v.forEach(item -> argv.add(item.asText()));
            return argv;
        }

        Map<String, String> env() {
            JsonNode v = get("env");
            if (v == null) {
                return Map.of();
            }
            if (!v.isObject()) {
                errors.add("env must be a mapping NAME: value");
                return Map.of();
            }
            Map<String, String> out = new LinkedHashMap<>();
            v.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
            return out;
        }
    }

    /** A job file that cannot be read or parsed. */
    public static final class JobSpecException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public JobSpecException(String message) {
            super(message);
        }
    }
}
