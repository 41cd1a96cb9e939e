package dev.bottlenose.web.service;

import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.Settings;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A {@code POST /api/searches} body as search options: the daemons, the budget, the time limit, the hypotheses
 * skipped and setting overrides. The body has passed the contract ({@code SearchRequest} in openapi.yaml: the
 * fields, their types and ranges); what is checked here is what only the consultant knows: that the skipped
 * hypotheses and the settings' keys exist and their values make a catalog of hypotheses. Every error names the
 * bad value.
 */
record SearchRequest(List<String> daemons, SearchOptions options) {

  /**
   * The search options of a body that has passed the contract; 400 for skipped hypotheses or settings the consultant
   * cannot take.
   */
  static SearchRequest parse(String searchId, JsonObject body) {
    SearchOptions options = SearchOptions.of(searchId);
    if (body.containsKey("skip")) {
      options = options.with("search.skip", skipped(body.getJsonArray("skip")));
    }
    if (body.containsKey("budget")) {
      options = options.withBudget(((Number) body.getValue("budget")).doubleValue());
    }
    if (body.containsKey("maxTimeSeconds")) {
      double seconds = ((Number) body.getValue("maxTimeSeconds")).doubleValue();
      options = options.withMaxTime(Duration.ofMillis(Math.round(seconds * 1000)));
    }
    if (body.containsKey("settings")) {
      options = withSettings(options, body.getJsonObject("settings"));
    }
    List<String> daemons = body.getJsonArray("daemons").stream().map(String.class::cast).distinct().toList();
    return new SearchRequest(daemons, options);
  }

  private static String skipped(JsonArray hypotheses) {
    String ids = String.join(",", hypotheses.stream().map(String.class::cast).toList());
    try {
      HypothesisCatalog.of(Settings.defaults().with("search.skip", ids));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    return ids;
  }

  private static SearchOptions withSettings(SearchOptions options, JsonObject settings) {
    for (Map.Entry<String, Object> e : settings) {
      options = options.with(e.getKey(), String.valueOf(e.getValue()));
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
