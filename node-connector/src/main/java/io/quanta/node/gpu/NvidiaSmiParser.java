package io.quanta.node.gpu;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Parses the output of {@code nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu
 * --format=csv,noheader,nounits}. Tolerates blank lines, extra spaces, commas inside the product name and
 * {@code [N/A]}/{@code [Not Supported]} values (read as unknown, 0). A value such as {@code ERR!} or
 * {@code [GPU requires reset]} makes that GPU unhealthy with the value as its error. A line that names no GPU index
 * (e.g. {@code Unable to determine the device handle for GPU 0000:3B:00.0: Unknown Error}) is returned as a warning.
 */
public final class NvidiaSmiParser {

    /** The query this parser understands, in this column order. */
    public static final String QUERY = "index,uuid,name,memory.total,memory.used,utilization.gpu";

    private static final int COLUMNS = 6;
    private static final Set<String> UNKNOWN_VALUES =
            Set.of("[n/a]", "n/a", "[not supported]", "[insufficient permissions]", "");

    /**
     * What one run of nvidia-smi said.
     *
     * @param gpus the GPUs with an index, sorted by index
     * @param warnings lines that could not be attributed to a GPU index, verbatim
     */
    public record Result(List<GpuDevice> gpus, List<String> warnings) {
        public Result {
            gpus = List.copyOf(gpus);
            warnings = List.copyOf(warnings);
        }
    }

    private NvidiaSmiParser() {
    }

    /** Parses a whole output. */
    public static Result parse(String output) {
        List<GpuDevice> gpus = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        for (String raw : output.split("\\R")) {
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            Optional<GpuDevice> gpu = parseLine(line);
            if (gpu.isEmpty()) {
                warnings.add(line);
            } else if (!seen.add(gpu.get().index())) {
                warnings.add("duplicate GPU index " + gpu.get().index() + ": " + line);
            } else {
                gpus.add(gpu.get());
            }
        }
        gpus.sort(Comparator.comparingInt(GpuDevice::index));
        return new Result(gpus, warnings);
    }

    /** One CSV line, or empty when the line does not start with a GPU index and hold all the columns. */
    static Optional<GpuDevice> parseLine(String line) {
        String[] fields = line.split(",", -1);
        if (fields.length < COLUMNS) {
            return Optional.empty();
        }
        Integer index = parseIndex(fields[0].strip());
        if (index == null) {
            return Optional.empty();
        }
        int last = fields.length;
        List<String> errors = new ArrayList<>();
        String uuid = text(fields[1], "uuid", errors);
        String name = text(String.join(",", java.util.Arrays.copyOfRange(fields, 2, last - 3)), "name", errors);
        int total = number(fields[last - 3], "memory.total", errors);
        int used = number(fields[last - 2], "memory.used", errors);
        int utilization = Math.min(100, number(fields[last - 1], "utilization.gpu", errors));
        Optional<String> error = errors.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", errors));
        return Optional.of(new GpuDevice(index, uuid, name, total, used, utilization, error));
    }

    private static Integer parseIndex(String value) {
        try {
            int index = Integer.parseInt(value);
            return index >= 0 ? index : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String text(String raw, String column, List<String> errors) {
        String value = raw.strip();
        if (isUnknown(value)) {
            return "";
        }
        if (isError(value)) {
            errors.add(column + ": " + value);
            return "";
        }
        return value;
    }

    private static int number(String raw, String column, List<String> errors) {
        String value = raw.strip();
        if (isUnknown(value)) {
            return 0;
        }
        if (isError(value)) {
            errors.add(column + ": " + value);
            return 0;
        }
        try {
            double parsed = Double.parseDouble(value);
            if (parsed < 0 || Double.isNaN(parsed)) {
                errors.add(column + ": negative or invalid value '" + value + "'");
                return 0;
            }
            return (int) Math.min(Integer.MAX_VALUE, Math.round(parsed));
        } catch (NumberFormatException e) {
            errors.add(column + ": unreadable value '" + value + "'");
            return 0;
        }
    }

    private static boolean isUnknown(String value) {
        return UNKNOWN_VALUES.contains(value.toLowerCase(Locale.ROOT));
    }

    private static boolean isError(String value) {
        return value.contains("ERR!") || (value.startsWith("[") && value.endsWith("]"));
    }
}
