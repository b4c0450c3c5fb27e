package io.quanta.streams.status;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One resource of the status API: a path pattern, segments separated by {@code /} where {@code {}} stands for any one
 * segment, whether it answers without the token, and its handler.
 */
record StatusRoute(List<String> pattern, boolean open, Handler handler) {

    /** Answers one request. */
    @FunctionalInterface
    interface Handler {
        void handle(Request request) throws IOException;
    }

    /**
     * A request matched to a route.
     *
     * @param params        the segments the pattern's {@code {}} matched, in order (percent-decoded)
     * @param query         the query parameters (percent-decoded)
     * @param forwardedFrom the path of this request when another instance forwarded it here, else null
     */
    record Request(HttpExchange exchange, List<String> params, Map<String, String> query, String forwardedFrom) {

        String param(int index) {
            return params.get(index);
        }

        /** {@code scope=local}: this instance's part of a list only (what instances ask each other). */
        boolean localOnly() {
            return "local".equals(query.get("scope"));
        }
    }

    /** A route that needs the token when the API has one. */
    static StatusRoute of(String pattern, Handler handler) {
        return new StatusRoute(List.of(pattern.split("/", -1)), false, handler);
    }

    /** A route that answers without the token (it holds no data). */
    static StatusRoute open(String pattern, Handler handler) {
        return new StatusRoute(List.of(pattern.split("/", -1)), true, handler);
    }

    /** The segments {@code {}} matched when {@code path} matches this pattern. */
    Optional<List<String>> match(List<String> path) {
        if (path.size() != pattern.size()) {
            return Optional.empty();
        }
        List<String> params = new ArrayList<>();
        for (int i = 0; i < path.size(); i++) {
            if (pattern.get(i).equals("{}")) {
                params.add(path.get(i));
            } else if (!pattern.get(i).equals(path.get(i))) {
                return Optional.empty();
            }
        }
        return Optional.of(params);
    }
}
