package io.quanta.chaos.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Collects a scenario's figures and violations while it checks its run. */
public final class Report {

    private static final int EXAMPLES = 5;

    private final String scenario;
    private final long began = System.nanoTime();
    private final List<Figure> figures = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();

    public Report(String scenario) {
        this.scenario = scenario;
    }

    /** A value only reported. */
    public Report info(String name, Object value) {
        figures.add(Figure.info(name, value));
        return this;
    }

    /** A count that must be {@code expected}; when it is not, a violation with up to five of {@code examples}. */
    public Report expect(String name, long actual, long expected, List<String> examples) {
        boolean ok = actual == expected;
        figures.add(new Figure(name, Long.toString(actual), Long.toString(expected), ok));
        if (!ok) {
            violations.add(name + ": " + actual + ", expected " + expected + examples(examples));
        }
        return this;
    }

    public Report expect(String name, long actual, long expected) {
        return expect(name, actual, expected, List.of());
    }

    /** A condition with its own wording of what was expected. */
    public Report expectThat(String name, Object actual, boolean ok, String expected) {
        figures.add(new Figure(name, String.valueOf(actual), expected, ok));
        if (!ok) {
            violations.add(name + ": " + actual + ", expected " + expected);
        }
        return this;
    }

    /** A broken promise that is not one figure (a timeout, a failed step). */
    public Report violation(String what) {
        violations.add(what);
        return this;
    }

    public ScenarioResult result(String logs) {
        return new ScenarioResult(scenario, Duration.ofNanos(System.nanoTime() - began), List.copyOf(figures),
                List.copyOf(violations), logs);
    }

    private static String examples(List<String> examples) {
        if (examples.isEmpty()) {
            return "";
        }
        List<String> shown = examples.subList(0, Math.min(EXAMPLES, examples.size()));
        return "; e.g. " + String.join("; ", shown) + (examples.size() > EXAMPLES ? "; ... ("
                + (examples.size() - EXAMPLES) + " more)" : "");
    }
}
