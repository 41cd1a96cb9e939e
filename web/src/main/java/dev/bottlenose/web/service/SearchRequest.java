package dev.bottlenose.web.service;

import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.Settings;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A checked {@code POST /api/searches} body: the daemons, and the search options with the budget, the
 * time limit and setting overrides. Every error names the field and the bad value.
 */
record SearchRequest(List<String> daemons, SearchOptions options) {
  private static final Set<String> FIELDS = Set.of("daemons", "budget", "maxTimeSeconds", "settings", "skip");

  static SearchRequest parse(String searchId, JsonObject body) {
    for (String field : body.fieldNames()) {
      if (!FIELDS.contains(field)) {
        throw ApiException.badRequest("unknown field '" + field + "'; expected " + String.join(", ", FIELDS.stream().sorted().toList()));
      }
    }
    SearchOptions options = SearchOptions.of(searchId);
    if (body.containsKey("skip")) {
      options = options.with("search.skip", skipped(body.getValue("skip")));
    }
    if (body.containsKey("budget")) {
      double budget = number(body, "budget");
      if (!(budget > 0 && budget <= 0.5)) {
        throw ApiException.badRequest("budget " + body.getValue("budget") + " is outside (0, 0.5]: it is a fraction of the target's CPU, e.g. 0.05");
      }
      options = options.withBudget(budget);
    }
    if (body.containsKey("maxTimeSeconds")) {
      double seconds = number(body, "maxTimeSeconds");
      if (!(seconds >= 1 && seconds <= 86_400)) {
        throw ApiException.badRequest("maxTimeSeconds " + body.getValue("maxTimeSeconds") + " is outside 1 .. 86400");
      }
      options = options.withMaxTime(Duration.ofMillis(Math.round(seconds * 1000)));
    }
    if (body.containsKey("settings")) {
      options = withSettings(options, body.getValue("settings"));
    }
    return new SearchRequest(daemons(body.getValue("daemons")), options);
  }

  private static List<String> daemons(Object value) {
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      throw ApiException.badRequest("'daemons' must be a non-empty array of daemon ids, is " + value);
    }
    List<String> ids = new ArrayList<>();
    for (Object o : array) {
      if (!(o instanceof String s) || s.isBlank()) {
        throw ApiException.badRequest("'daemons' holds " + o + ", not a daemon id");
      }
      if (!ids.contains(s)) {
        ids.add(s);
      }
    }
    return ids;
  }

  private static String skipped(Object value) {
    if (!(value instanceof JsonArray array) || !array.stream().allMatch(o -> o instanceof String)) {
      throw ApiException.badRequest("'skip' must be an array of hypothesis ids, is " + value);
    }
    String ids = String.join(",", array.stream().map(String.class::cast).toList());
    try {
      HypothesisCatalog.of(Settings.defaults().with("search.skip", ids));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    return ids;
  }

  private static double number(JsonObject body, String field) {
    if (!(body.getValue(field) instanceof Number n)) {
      throw ApiException.badRequest("'" + field + "' must be a number, is " + body.getValue(field));
    }
    return n.doubleValue();
  }

  private static SearchOptions withSettings(SearchOptions options, Object value) {
    if (!(value instanceof JsonObject settings)) {
      throw ApiException.badRequest("'settings' must be an object of key: value, is " + value);
    }
    for (Map.Entry<String, Object> e : settings) {
      String key = e.getKey();
      if (!(e.getValue() instanceof String) && !(e.getValue() instanceof Number) && !(e.getValue() instanceof Boolean)) {
        throw ApiException.badRequest("setting '" + key + "' must be a string or a number, is " + e.getValue());
      }
      options = options.with(key, String.valueOf(e.getValue()));
    }
    try {
      List<String> unknown = HypothesisCatalog.unknownKeys(options.settings());
      if (!unknown.isEmpty()) {
        throw ApiException.badRequest("unknown setting '" + unknown.get(0) + "' (consultant/README.md, \"Settings and"
            + " defaults\", lists them; a hypothesis's threshold needs the hypothesis, built in or declared with"
            + " hypothesis.<id>.metric)");
      }
      HypothesisCatalog.of(options.settings());
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    return options;
  }
}
