package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.DaemonEvents.Announcement;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.consultant.Search;
import dev.bottlenose.consultant.bus.SearchRunner;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /health} and {@code GET /metrics} of a real service whose Vert.x reports its meters, as {@code serve}
 * runs it: the scrape read strictly as Prometheus text, Vert.x's HTTP and event-bus meters and Bottlenose's in it, a
 * search started against a daemon registered on the local bus (it answers nothing else) counted as it runs and ends,
 * and both endpoints behind the token and origin rules.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class MetricsEndpointTest {
  private static final String TOKEN = "metrics-token-0123456789";
  private static final String TEXT_FORMAT = "text/plain; version=0.0.4";
  private static final String JSON = "application/json";
  private static final String REQUESTS = "vertx_http_server_requests_total";

  @TempDir
  static Path data;
  private ServiceMetrics metrics;
  private ServiceFixture fixture;

  @BeforeAll
  void start() throws Exception {
    metrics = new ServiceMetrics();
    fixture = new ServiceFixture(metrics, new WebService.Options("127.0.0.1", 0, null, data));
  }

  @AfterAll
  void stop() throws Exception {
    fixture.close();
  }

  @Test
  @Order(1)
  void healthSaysUpWithTheClusterTheDaemonsAndTheRunningSearches() throws Exception {
    HttpResponse<String> health = fixture.get("/health");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith(JSON));
    assertThat(new JsonObject(health.body())).isEqualTo(new JsonObject()
        .put("status", "up").put("clusterMembers", 1).put("daemons", 0).put("searchesRunning", 0));

    MessageConsumer<Object> registry = registerDaemons("vm-1", "vm-2");
    try {
      assertThat(new JsonObject(fixture.get("/health").body()).getInteger("daemons")).isEqualTo(2);
      assertThat(scrape().value("bottlenose_daemons", Map.of())).isEqualTo(2.0);
    } finally {
      registry.unregister().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    assertThat(scrape().value("bottlenose_daemons", Map.of())).isEqualTo(0.0);
  }

  @Test
  @Order(2)
  void theScrapeIsPrometheusTextWithVertxsHttpAndEventBusMetersAndBottlenoses() throws Exception {
    fixture.vertx.eventBus().consumer("test.echo", m -> m.reply("pong"));
    assertThat(fixture.vertx.eventBus().request("test.echo", "ping").toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS).body()).isEqualTo("pong");
    assertThat(fixture.get("/health").statusCode()).isEqualTo(200);

    HttpResponse<String> answer = fixture.get("/metrics");
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("content-type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith(TEXT_FORMAT));
    Scrape scrape = Scrape.parse(answer.body());

    assertThat(scrape.types).containsEntry("bottlenose_searches_started_total", "counter")
        .containsEntry("bottlenose_searches_running", "gauge")
        .containsEntry("bottlenose_searches_finished_total", "counter")
        .containsEntry("bottlenose_daemons", "gauge")
        .containsEntry("bottlenose_verdicts_total", "counter")
        .containsEntry("vertx_http_server_requests_total", "counter")
        .containsEntry("vertx_http_server_response_time_seconds", "summary")
        .containsEntry("vertx_eventbus_sent_total", "counter")
        .containsEntry("vertx_eventbus_received_total", "counter")
        .containsEntry("vertx_eventbus_processed_total", "counter");
    for (String outcome : ServiceMetrics.OUTCOMES) {
      assertThat(scrape.value("bottlenose_searches_finished_total", Map.of("outcome", outcome))).isEqualTo(0.0);
    }
    for (String state : List.of("true", "false", "unknown")) {
      assertThat(scrape.value("bottlenose_verdicts_total", Map.of("state", state))).isEqualTo(0.0);
    }
    assertThat(scrape.value("bottlenose_searches_started_total", Map.of())).isEqualTo(0.0);
    assertThat(scrape.value("bottlenose_searches_running", Map.of())).isEqualTo(0.0);
    assertThat(scrape.value(REQUESTS, Map.of("method", "GET", "code", "200", "route", "/health")))
        .isGreaterThanOrEqualTo(1.0);
    assertThat(scrape.value("vertx_eventbus_sent_total", Map.of("side", "local"))).isGreaterThanOrEqualTo(1.0);
    assertThat(scrape.value("vertx_eventbus_received_total", Map.of("side", "local"))).isGreaterThanOrEqualTo(1.0);
    assertThat(scrape.value("vertx_eventbus_processed_total", Map.of("side", "local"))).isGreaterThanOrEqualTo(1.0);
    // The scrape itself is counted by the next one.
    assertThat(scrape().value(REQUESTS, Map.of("method", "GET", "code", "200", "route", "/metrics")))
        .isGreaterThanOrEqualTo(1.0);
  }

  @Test
  @Order(3)
  void aSearchIsCountedAsItStartsRunsWithinItsBudgetAndEnds() throws Exception {
    MessageConsumer<Object> registry = registerDaemons("vm-1");
    try {
      HttpResponse<String> started = fixture.post("/api/searches", "{\"daemons\": [\"vm-1\"], \"budget\": 0.07}");
      assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
      String id = new JsonObject(started.body()).getString("searchId");

      Scrape running = scrape();
      assertThat(running.value("bottlenose_searches_started_total", Map.of())).isEqualTo(1.0);
      assertThat(running.value("bottlenose_searches_running", Map.of())).isEqualTo(1.0);
      assertThat(running.value("bottlenose_search_budget_ratio", Map.of("search", id))).isEqualTo(0.07);
      assertThat(running.value("bottlenose_search_budget_spent_ratio", Map.of("search", id))).isBetween(0.0, 0.5);
      assertThat(running.types).containsEntry("bottlenose_search_budget_spent_ratio", "gauge");
      assertThat(new JsonObject(fixture.get("/health").body()).getInteger("searchesRunning")).isEqualTo(1);

      assertThat(fixture.post("/api/searches/" + id + "/stop", "{}").statusCode()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
          scrape().value("bottlenose_searches_finished_total", Map.of("outcome", "stopped"))).isEqualTo(1.0));
      Scrape ended = scrape();
      assertThat(ended.value("bottlenose_searches_running", Map.of())).isEqualTo(0.0);
      assertThat(ended.samples).noneMatch(s -> s.name.startsWith("bottlenose_search_budget"));
      assertThat(ended.samples.stream().filter(s -> s.name.equals("bottlenose_searches_finished_total"))
          .mapToDouble(s -> s.value).sum()).isEqualTo(1.0);
      assertThat(new JsonObject(fixture.get("/health").body()).getInteger("searchesRunning")).isZero();
    } finally {
      registry.unregister().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @Order(4)
  void aVerdictIsCountedOnceWhenANodeReachesIt() throws Exception {
    Scrape before = scrape();
    String search = "s-verdicts";
    node(search, "nodeAdded", 1, "untested");
    node(search, "nodeChanged", 1, "testing");
    node(search, "nodeChanged", 1, "true");
    node(search, "nodeChanged", 1, "true");
    node(search, "nodeAdded", 2, "false");
    node(search, "nodeChanged", 2, "untested");
    node(search, "nodeChanged", 2, "testing");
    node(search, "nodeChanged", 2, "false");
    node(search, "nodeChanged", 3, "unknown");
    node(search, "nodeChanged", 3, "stopped");
    node(search, "nodeChanged", 2, "true");
    metrics.searchEvent(search, new JsonObject().put("type", "budget").put("fraction", 0.05).put("load", 0.01));
    metrics.searchEvent(search, new JsonObject().put("type", "searchEnded").put("searchId", search)
        .put("reason", "stopped"));
    Scrape after = scrape();
    assertThat(counted(before, after, "true")).isEqualTo(2.0);
    assertThat(counted(before, after, "false")).isEqualTo(1.0);
    assertThat(counted(before, after, "unknown")).isEqualTo(1.0);
  }

  @Test
  void anOutcomeIsTakenFromHowTheSearchEnded() {
    assertThat(ServiceMetrics.outcome(true, false, Search.CONVERGED)).isEqualTo("converged");
    assertThat(ServiceMetrics.outcome(true, false, Search.TIME_LIMIT)).isEqualTo("time_limit");
    assertThat(ServiceMetrics.outcome(true, false, "stopped by the user")).isEqualTo("stopped");
    assertThat(ServiceMetrics.outcome(true, false, SearchRunner.TARGET_EXITED + " (daemon vm-1): exit 0"))
        .isEqualTo("target_exited");
    assertThat(ServiceMetrics.outcome(true, true, "daemon lost: it left the cluster (daemon vm-1)"))
        .isEqualTo("daemon_lost");
    assertThat(ServiceMetrics.outcome(true, false, SearchRunner.STEP_FAILED + ": boom")).isEqualTo("failed");
    assertThat(ServiceMetrics.outcome(true, false, null)).isEqualTo("failed");
    assertThat(ServiceMetrics.outcome(false, false, Search.CONVERGED)).isEqualTo("failed");
    assertThat(ServiceMetrics.OUTCOMES)
        .containsExactlyInAnyOrder("converged", "time_limit", "stopped", "target_exited", "daemon_lost", "failed");
  }

  @Test
  void healthIsDownOnceTheVertxCloses() throws Exception {
    Vertx vertx = Vertx.vertx();
    assertThat(WebService.down(vertx)).isNull();
    assertThat(WebService.clusterMembers(vertx)).isEqualTo(1);
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    assertThat(WebService.down(vertx)).isEqualTo("the cluster's Vert.x is closing or closed");
  }

  @Test
  void healthAndMetricsNeedTheTokenAndRefuseOtherOrigins() throws Exception {
    WebService.Options withToken = new WebService.Options("127.0.0.1", 0, TOKEN, data);
    try (ServiceFixture f = new ServiceFixture(new ServiceMetrics(), withToken)) {
      for (String path : List.of("/health", "/metrics")) {
        HttpResponse<String> none = f.get(path);
        assertThat(none.statusCode()).as(path).isEqualTo(401);
        assertThat(new JsonObject(none.body()).getString("error")).contains("needs a token")
            .contains("Authorization: Bearer");
        assertThat(f.get(path, "Authorization", "Bearer wrong-wrong-wrong").statusCode()).as(path).isEqualTo(401);
        assertThat(f.get(path + "?token=" + TOKEN).statusCode()).as(path).isEqualTo(401);
        assertThat(f.get(path, "Authorization", "Bearer " + TOKEN).statusCode()).as(path).isEqualTo(200);
        assertThat(f.get(path, "Cookie", "bottlenose_token=" + TOKEN).statusCode()).as(path).isEqualTo(200);
        assertThat(f.get(path, "Authorization", "Bearer " + TOKEN, "Origin", "http://evil.example").statusCode())
            .as(path).isEqualTo(403);
        assertThat(f.get(path, "Authorization", "Bearer " + TOKEN, "Sec-Fetch-Site", "cross-site").statusCode())
            .as(path).isEqualTo(403);
        for (String spelling : List.of("/x/.." + path, "/." + path, "/" + path, path + "/")) {
          assertThat(f.raw("GET", spelling, null).status()).as(spelling).isEqualTo(401);
        }
      }
      Scrape scrape = Scrape.parse(f.get("/metrics", "Authorization", "Bearer " + TOKEN).body());
      assertThat(scrape.value("bottlenose_searches_started_total", Map.of())).isZero();
      // Served by Access before any route: the refusals are counted too, with no route.
      assertThat(scrape.value(REQUESTS, Map.of("method", "GET", "code", "401", "route", "")))
          .isGreaterThanOrEqualTo(1.0);
    }
  }

  @Test
  void theParserRefusesWhatIsNotPrometheusText() {
    String good = "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"1\"} 2.0\n";
    assertThat(Scrape.parse(good).value("a_total", Map.of("x", "1"))).isEqualTo(2.0);
    for (String bad : List.of("a_total 1\n", "# TYPE a_total counter\na_total{x=1} 2\n", "# TYPE a gauge\na two\n",
        "# TYPE a gauge\na 1", "# TYPE a gauge\n\na 1\n", "# TYPE a gauge\nb 1\n", "# TYPE a summary\na_bucket 1\n",
        "# TYPE a gauge\n# TYPE a gauge\na 1\n", "# TYPE a sometimes\na 1\n", "# TYPE 1a gauge\n1a 1\n",
        "# TYPE a gauge\na{x=\"1\",x=\"2\"} 1\n", "# TYPE a gauge\na{x=\"\\q\"} 1\n", "{x=\"1\"} 1\n")) {
      assertThatThrownBy(() -> Scrape.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  // ---- helpers ----

  private Scrape scrape() throws Exception {
    HttpResponse<String> answer = fixture.get("/metrics");
    assertThat(answer.statusCode()).isEqualTo(200);
    return Scrape.parse(answer.body());
  }

  private static double counted(Scrape before, Scrape after, String state) {
    String verdicts = "bottlenose_verdicts_total";
    return after.value(verdicts, Map.of("state", state)) - before.value(verdicts, Map.of("state", state));
  }

  private void node(String search, String type, int id, String state) {
    metrics.searchEvent(search, new JsonObject().put("type", type).put("searchId", search)
        .put("node", new JsonObject().put("id", id).put("hypothesis", "cpu_bound").put("state", state)));
  }

  /** The cluster's daemon registry on the local bus, answering that these daemons run (they answer nothing else). */
  private MessageConsumer<Object> registerDaemons(String... ids) throws Exception {
    List<Announcement> daemons = new ArrayList<>();
    for (String id : ids) {
      daemons.add(new Announcement(id, 4242, "com.acme.Main", "17", "localhost", "RUNNING", false, null, null, null));
    }
    MessageConsumer<Object> registry = fixture.vertx.eventBus().consumer(Addresses.DAEMONS_LIST,
        m -> m.reply(new DaemonReplies.Daemons(daemons).toJson()));
    registry.completion().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    return registry;
  }

  /**
   * A scrape read strictly as Prometheus text format 0.0.4: each line a {@code # HELP name text}, a {@code # TYPE
   * name type} before the family's samples (once per family), or a sample {@code name{label="value",…} value} of a
   * typed family (a summary's or histogram's {@code _count}, {@code _sum}, {@code _bucket} as the format allows),
   * label values with only the escapes {@code \\ \" \n}, no label twice, and the text ending in a newline.
   */
  static final class Scrape {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") ((?:[^\\\\\\n]|\\\\[\\\\n])*)");
    private static final Pattern TYPE =
        Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?");
    /** One label: a name, a quoted value with only the escapes \\, \" and \n in it, then a comma or the end. */
    private static final Pattern LABEL =
        Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");

    record Sample(String name, Map<String, String> labels, double value) {}

    final Map<String, String> types = new LinkedHashMap<>();
    final List<Sample> samples = new ArrayList<>();

    static Scrape parse(String text) {
      if (!text.endsWith("\n")) {
        throw new IllegalArgumentException("the text does not end in a newline");
      }
      Scrape scrape = new Scrape();
      Set<String> helped = new java.util.HashSet<>();
      Set<String> seen = new java.util.HashSet<>();
      int number = 0;
      for (String line : text.substring(0, text.length() - 1).split("\n", -1)) {
        number++;
        String where = "line " + number + " '" + line + "': ";
        Matcher m;
        if ((m = HELP.matcher(line)).matches()) {
          if (!helped.add(m.group(1))) {
            throw new IllegalArgumentException(where + "a second HELP for " + m.group(1));
          }
        } else if ((m = TYPE.matcher(line)).matches()) {
          if (scrape.types.put(m.group(1), m.group(2)) != null || seen.contains(m.group(1))) {
            throw new IllegalArgumentException(where + "a second TYPE, or a TYPE after the samples, of " + m.group(1));
          }
        } else if ((m = SAMPLE.matcher(line)).matches()) {
          String name = m.group(1);
          String family = scrape.family(name);
          if (family == null) {
            throw new IllegalArgumentException(where + "a sample of no family a TYPE line declared");
          }
          seen.add(family);
          scrape.samples.add(new Sample(name, labels(m.group(2), where), value(m.group(3), where)));
        } else {
          throw new IllegalArgumentException(where + "neither # HELP, # TYPE nor a sample");
        }
      }
      return scrape;
    }

    /** The declared family a sample name belongs to, or null. */
    private String family(String name) {
      if (types.containsKey(name)) {
        return name;
      }
      for (String suffix : List.of("_count", "_sum", "_bucket")) {
        if (name.endsWith(suffix)) {
          String family = name.substring(0, name.length() - suffix.length());
          String type = types.get(family);
          if ("histogram".equals(type) || "summary".equals(type) && !suffix.equals("_bucket")) {
            return family;
          }
        }
      }
      return null;
    }

    private static Map<String, String> labels(String text, String where) {
      Map<String, String> labels = new TreeMap<>();
      if (text == null || text.isEmpty()) {
        return labels;
      }
      Matcher m = LABEL.matcher(text);
      int at = 0;
      while (at < text.length()) {
        if (!m.find(at) || m.start() != at) {
          throw new IllegalArgumentException(where + "malformed labels at '" + text.substring(at) + "'");
        }
        String value = m.group(2).replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\");
        if (labels.put(m.group(1), value) != null) {
          throw new IllegalArgumentException(where + "label " + m.group(1) + " twice");
        }
        at = m.end();
      }
      return labels;
    }

    private static double value(String text, String where) {
      switch (text) {
        case "+Inf":
          return Double.POSITIVE_INFINITY;
        case "-Inf":
          return Double.NEGATIVE_INFINITY;
        case "NaN":
          return Double.NaN;
        default:
          try {
            if (!text.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
              throw new NumberFormatException(text);
            }
            return Double.parseDouble(text);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + "the value '" + text + "' is not a number");
          }
      }
    }

    /** The value of the one sample named {@code name} with exactly {@code labels}; fails when there is none. */
    double value(String name, Map<String, String> labels) {
      Map<String, String> wanted = new HashMap<>(labels);
      List<Sample> found = samples.stream().filter(s -> s.name.equals(name) && s.labels.equals(wanted)).toList();
      if (found.size() != 1) {
        throw new AssertionError(found.size() + " samples " + name + labels + " in the scrape; of that name: "
            + samples.stream().filter(s -> s.name.equals(name)).toList());
      }
      return found.get(0).value;
    }
  }
}
