package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** What the service checks of a search's body beyond the contract (its shapes: ApiContractTest). */
class SearchRequestTest {

  @Test
  void budgetTimeAndSettingsBecomeSearchOptions() {
    SearchRequest r = SearchRequest.parse("s1", new JsonObject(
        "{\"daemons\": [\"a\", \"b\", \"a\"], \"budget\": 0.1, \"maxTimeSeconds\": 30, \"settings\": {\"search.sufficient_seconds\": 2}}"));
    assertThat(r.daemons()).containsExactly("a", "b");
    assertThat(r.options().settings().number("budget.fraction")).isEqualTo(0.1);
    assertThat(r.options().settings().number("search.max_time_seconds")).isEqualTo(30);
    assertThat(r.options().settings().number("search.sufficient_seconds")).isEqualTo(2);
  }

  @Test
  void hypothesisThresholdsMayBeSetButUnknownHypothesesNot() {
    SearchRequest r = SearchRequest.parse("s1", new JsonObject("{\"daemons\": [\"a\"], \"settings\": {\"io_wait.threshold\": 0.4}}"));
    assertThat(r.options().settings().number("io_wait.threshold")).isEqualTo(0.4);
    assertThatThrownBy(() -> SearchRequest.parse("s1", new JsonObject("{\"daemons\": [\"a\"], \"settings\": {\"lunch.threshold\": 1}}")))
        .hasMessageContaining("unknown setting 'lunch.threshold'");
    SearchRequest declared = SearchRequest.parse("s1", new JsonObject().put("daemons", new io.vertx.core.json.JsonArray().add("a"))
        .put("settings", new JsonObject().put("hypothesis.tw.metric", "teller_wait").put("hypothesis.tw.parent", "top")
            .put("tw.threshold", 0.5)));
    assertThat(declared.options().settings().number("tw.threshold")).isEqualTo(0.5);
  }

  @Test
  void skippedHypothesesBecomeASettingAndUnknownOnesAreNamed() {
    SearchRequest r = SearchRequest.parse("s1", new JsonObject("{\"daemons\": [\"a\"], \"skip\": [\"io_wait\", \"sync_wait\"]}"));
    assertThat(r.options().settings().text("search.skip")).isEqualTo("io_wait,sync_wait");
    assertThatThrownBy(() -> SearchRequest.parse("s1", new JsonObject("{\"daemons\": [\"a\"], \"skip\": [\"lunch\"]}")))
        .isInstanceOf(ApiException.class).hasMessageContaining("unknown hypothesis 'lunch'");
  }
}
