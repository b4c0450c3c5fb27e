package io.quanta.chaos.scenario;

import java.time.Duration;
import java.util.List;

/**
 * What a scenario measured and which of its promises were broken.
 *
 * @param scenario   its name
 * @param took       wall time of the whole scenario
 * @param figures    its table, in order
 * @param violations every broken promise, with examples (empty: passed)
 * @param logs       where the children's logs are
 */
public record ScenarioResult(String scenario, Duration took, List<Figure> figures, List<String> violations,
                             String logs) {

    public boolean passed() {
        return violations.isEmpty();
    }

    /** The value of a figure by name. */
    public String figure(String name) {
        return figures.stream().filter(f -> f.name().equals(name)).map(Figure::value).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no figure '" + name + "' in " + scenario));
    }

    /** A multi-line account: the figures, the violations, the logs. */
    public String describe() {
        StringBuilder b = new StringBuilder(scenario).append(" (").append(took.toSeconds()).append(" s): ")
                .append(passed() ? "passed" : violations.size() + " violation(s)").append('\n');
        figures.forEach(f -> b.append(String.format("  %-52s %-16s %s%n", f.name(), f.value(),
                f.expected().isEmpty() ? "" : (f.ok() ? "ok, " : "FAILED, expected ") + f.expected())));
        violations.forEach(v -> b.append("  VIOLATION: ").append(v).append('\n'));
        if (!passed()) {
            b.append("  ").append(logs).append('\n');
        }
        return b.toString();
    }
}
