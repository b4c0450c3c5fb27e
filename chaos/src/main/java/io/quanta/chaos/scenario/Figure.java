package io.quanta.chaos.scenario;

/**
 * One line of a scenario's table: a measured value, what it must be (empty for a value that is only reported) and
 * whether it is.
 */
public record Figure(String name, String value, String expected, boolean ok) {

    public static Figure info(String name, Object value) {
        return new Figure(name, String.valueOf(value), "", true);
    }
}
