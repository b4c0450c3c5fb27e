package io.quanta.sim.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A small self-contained SVG line chart: several named series of (x, y) points, linear or base-10 logarithmic x axis,
 * ticks at round values, a legend. No scripts, no external resources.
 */
public final class SvgChart {

    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int WIDTH = 760;
    private static final int HEIGHT = 360;
    private static final int LEFT = 70;
    private static final int RIGHT = 170;
    private static final int TOP = 30;
    private static final int BOTTOM = 50;

    /**
     * One line: a name and its points in x order.
     *
     * @param colour index in the palette, or -1 for the series' position
     * @param dashed whether the line is dashed
     */
    public record Series(String name, double[] xs, double[] ys, int colour, boolean dashed) {
        public Series {
            Objects.requireNonNull(name, "name");
            if (xs.length != ys.length) {
                throw new IllegalArgumentException("series " + name + ": " + xs.length + " x values but " + ys.length
                        + " y values");
            }
        }

        /** A solid line coloured by its position. */
        public Series(String name, double[] xs, double[] ys) {
            this(name, xs, ys, -1, false);
        }
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final boolean steps;
    private final List<Series> series = new ArrayList<>();

    /**
     * @param title chart title
     * @param xLabel x axis label
     * @param yLabel y axis label
     * @param logX whether the x axis is logarithmic (non-positive x values are dropped)
     * @param steps whether to draw step lines (CDFs) rather than straight segments
     */
    public SvgChart(String title, String xLabel, String yLabel, boolean logX, boolean steps) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
        this.steps = steps;
    }

    /** Adds a series; returns this chart. */
    public SvgChart add(Series s) {
        series.add(s);
        return this;
    }

    /** The SVG element. */
    public String render() {
        double[] xr = range(true);
        double[] yr = range(false);
        if (yr[0] > 0) {
            yr[0] = 0;
        }
        if (yr[1] <= yr[0]) {
            yr[1] = yr[0] + 1;
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                LEFT, esc(title)));
        axes(b, xr, yr);
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String colour = COLOURS[(s.colour() >= 0 ? s.colour() : i) % COLOURS.length];
            line(b, s, colour, xr, yr);
            legend(b, s, colour, i);
        }
        return b.append("</svg>\n").toString();
    }

    private void axes(StringBuilder b, double[] xr, double[] yr) {
        int x0 = LEFT;
        int x1 = WIDTH - RIGHT;
        int y0 = HEIGHT - BOTTOM;
        int y1 = TOP;
        b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#444\"/>%n", x0, y1, x1 - x0, y0 - y1));
        for (double t : ticks(xr, logX)) {
            double px = px(t, xr);
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", px, y1, px, y0, px, y0 + 15,
                    tickLabel(t)));
        }
        for (double t : ticks(yr, false)) {
            double py = py(t, yr);
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", x0, py, x1, py, x0 - 5, py + 4,
                    tickLabel(t)));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                (x0 + x1) / 2, HEIGHT - 12, esc(xLabel)));
        b.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 14 %d)\">%s</text>%n", (y0 + y1) / 2, (y0 + y1) / 2, esc(yLabel)));
    }

    private void line(StringBuilder b, Series s, String colour, double[] xr, double[] yr) {
        StringBuilder pts = new StringBuilder();
        double prevY = Double.NaN;
        for (int i = 0; i < s.xs().length; i++) {
            double x = s.xs()[i];
            double y = s.ys()[i];
            if (Double.isNaN(x) || Double.isNaN(y) || (logX && x <= 0)) {
                continue;
            }
            if (steps && !Double.isNaN(prevY)) {
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(x, xr), py(prevY, yr)));
            }
            pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(x, xr), py(y, yr)));
            prevY = y;
        }
        b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s "
                + "points=\"%s\"><title>%s</title></polyline>%n", colour, dash(s), pts.toString().trim(),
                esc(s.name())));
    }

    private void legend(StringBuilder b, Series s, String colour, int i) {
        int x = WIDTH - RIGHT + 15;
        int y = TOP + 10 + 18 * i;
        b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"3\"%s/><text x=\"%d\" y=\"%d\">%s</text>%n", x, y, x + 20, y, colour, dash(s),
                x + 26, y + 4, esc(s.name())));
    }

    private static String dash(Series s) {
        return s.dashed() ? " stroke-dasharray=\"5,3\"" : "";
    }

    private double[] range(boolean x) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            double[] vs = x ? s.xs() : s.ys();
            for (double v : vs) {
                if (Double.isNaN(v) || (x && logX && v <= 0)) {
                    continue;
                }
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        if (lo == Double.POSITIVE_INFINITY) {
            return logX && x ? new double[] {1, 10} : new double[] {0, 1};
        }
        if (x && logX) {
            return new double[] {Math.pow(10, Math.floor(Math.log10(lo))), Math.pow(10, Math.ceil(Math.log10(hi)))};
        }
        if (hi <= lo) {
            hi = lo + 1;
        }
        return new double[] {lo, hi};
    }

    private double px(double x, double[] xr) {
        double f = logX ? (Math.log10(x) - Math.log10(xr[0])) / (Math.log10(xr[1]) - Math.log10(xr[0]))
                : (x - xr[0]) / (xr[1] - xr[0]);
        return LEFT + f * (WIDTH - RIGHT - LEFT);
    }

    private static double py(double y, double[] yr) {
        return HEIGHT - BOTTOM - (y - yr[0]) / (yr[1] - yr[0]) * (HEIGHT - BOTTOM - TOP);
    }

    private static List<Double> ticks(double[] r, boolean log) {
        List<Double> out = new ArrayList<>();
        if (log) {
            for (double t = r[0]; t <= r[1] * 1.0001; t *= 10) {
                out.add(t);
            }
            return out;
        }
        double span = r[1] - r[0];
        double raw = span / 6;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
        for (double t = Math.ceil(r[0] / step) * step; t <= r[1] + step * 1e-9; t += step) {
            out.add(t);
        }
        return out;
    }

    private static String tickLabel(double t) {
        double a = Math.abs(t);
        if (a >= 1e6) {
            return Numbers.plain(t / 1e6) + "M";
        }
        if (a >= 1e3) {
            return Numbers.plain(t / 1e3) + "k";
        }
        return Numbers.plain(Math.round(t * 1000) / 1000.0);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
