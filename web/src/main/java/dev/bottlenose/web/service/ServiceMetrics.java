package dev.bottlenose.web.service;

import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.Search;
import dev.bottlenose.consultant.bus.SearchRunner;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vertx.micrometer.VertxPrometheusOptions;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The meters of one service, in one Micrometer registry that {@code GET /metrics} scrapes as Prometheus text:
 * Vert.x's own (HTTP server requests and responses, event-bus messages; present when the service's Vert.x was
 * built with {@link #vertxMetrics()}) and Bottlenose's: searches started, running and finished by outcome,
 * daemons known, verdicts reached by state, and the share of its target's CPU each running search spends.
 */
public final class ServiceMetrics {
  /** The outcomes a finished search is counted under ({@link #outcome}). */
  static final List<String> OUTCOMES = List.of("converged", "time_limit", "stopped", "target_exited", "daemon_lost",
      "failed");
  private static final List<NodeState> VERDICTS = List.of(NodeState.TRUE, NodeState.FALSE, NodeState.UNKNOWN);
  /** Vert.x keeps its metrics backends by name in one map per JVM: each registry gets a name of its own. */
  private static final AtomicInteger NAMES = new AtomicInteger();

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final String name = "bottlenose-service-" + NAMES.incrementAndGet();
  private final Counter started;
  private final Map<String, Counter> finished = new LinkedHashMap<>();
  private final Map<NodeState, Counter> verdicts = new EnumMap<>(NodeState.class);
  private final AtomicInteger daemons = new AtomicInteger();
  /** Per running search, the verdict each node last reached, so that a verdict is counted once as it is reached. */
  private final Map<String, Map<Integer, NodeState>> verdictOf = new ConcurrentHashMap<>();

  public ServiceMetrics() {
    started = Counter.builder("bottlenose.searches.started").description("Searches this service started")
        .register(registry);
    for (String outcome : OUTCOMES) {
      finished.put(outcome, Counter.builder("bottlenose.searches.finished").tag("outcome", outcome)
          .description("Searches of this service that ended and were saved (or could not be: failed), by outcome")
          .register(registry));
    }
    for (NodeState state : VERDICTS) {
      verdicts.put(state, Counter.builder("bottlenose.verdicts").tag("state", state.word())
          .description("Verdicts the searches of this service reached, each time a node reached one, by verdict")
          .register(registry));
    }
    Gauge.builder("bottlenose.daemons", daemons, AtomicInteger::get)
        .description("Daemons registered in the cluster, as last asked (every scrape and health check asks)")
        .register(registry);
  }

  /**
   * What the service's Vert.x is built with ({@code Vertx.builder().withMetrics(...)}) so that its own meters are
   * in this registry: HTTP server requests and responses by method, status code and route, event-bus messages
   * sent, published, received, delivered and handled (on the local or the remote side), worker pools, and the JVM's
   * memory, threads, classes and collections. Whatever metrics options the Vert.x has, these are the ones used.
   */
  public VertxMetricsFactory vertxMetrics() {
    MicrometerMetricsOptions options = new MicrometerMetricsOptions().setEnabled(true).setRegistryName(name)
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true)).setJvmMetricsEnabled(true)
        .addLabels(Label.HTTP_ROUTE);
    MicrometerMetricsFactory micrometer = new MicrometerMetricsFactory(registry);
    return vertxOptions -> micrometer.metrics(new VertxOptions().setMetricsOptions(options));
  }

  /** The handler that answers with the registry's scrape, in Prometheus text format 0.0.4. */
  Handler<RoutingContext> scraping() {
    return PrometheusScrapingHandler.create(registry);
  }

  /** Adds the gauge of the running searches of {@code searches} (those not finished). */
  void watch(Searches searches) {
    Gauge.builder("bottlenose.searches.running", searches, ServiceMetrics::running).strongReference(true)
        .description("Searches of this service running now").register(registry);
  }

  /** How many searches of {@code searches} run now (started, not ended). */
  static int running(Searches searches) {
    return (int) searches.running().stream().filter(l -> !l.search().isFinished()).count();
  }

  /** The daemons registered in the cluster, as just asked. */
  void daemons(int known) {
    daemons.set(known);
  }

  /** The daemons registered in the cluster, as last asked. */
  int daemons() {
    return daemons.get();
  }

  /**
   * A search started: counted, its budget gauges added (removed as it ends), and counted again under its outcome
   * once it is saved.
   */
  void searchStarted(Searches.Live l) {
    started.increment();
    String id = l.id();
    Search search = l.search();
    List<Meter> gauges = List.of(
        Gauge.builder("bottlenose.search.budget.spent.ratio", search, ServiceMetrics::spent).tag("search", id)
            .strongReference(true)
            .description("The share of its target's CPU a running search spends at its last step: its measuring"
                + " (observed, else predicted) and being attached at rest, as its status line prints them")
            .register(registry),
        Gauge.builder("bottlenose.search.budget.ratio", search, s -> s.spending().budget()).tag("search", id)
            .strongReference(true).description("The share of its target's CPU a running search may spend (its budget)")
            .register(registry));
    l.runner.saved().onComplete(ar -> {
      gauges.forEach(registry::remove);
      verdictOf.remove(id);
      finished.get(outcome(ar.succeeded(), l.runner.daemonLost(), search.endReason())).increment();
    });
  }

  /**
   * One event of a search as it goes to the live topic: a node that reaches a verdict (true, false, unknown) other
   * than the last one it reached is counted; a node tested again that reaches the same verdict is not.
   */
  void searchEvent(String searchId, JsonObject event) {
    String type = event.getString("type");
    if ("searchEnded".equals(type)) {
      verdictOf.remove(searchId);
      return;
    }
    JsonObject node = "nodeAdded".equals(type) || "nodeChanged".equals(type) ? event.getJsonObject("node") : null;
    if (node == null || !(node.getValue("id") instanceof Number id)
        || !(node.getValue("state") instanceof String word)) {
      return;
    }
    NodeState state;
    try {
      state = NodeState.byWord(word);
    } catch (IllegalArgumentException e) {
      return;
    }
    Counter verdict = verdicts.get(state);
    if (verdict == null) {
      return;
    }
    if (verdictOf.computeIfAbsent(searchId, k -> new ConcurrentHashMap<>()).put(id.intValue(), state) != state) {
      verdict.increment();
    }
  }

  /** What a search spends of its target's CPU: its measuring and being attached at rest, as its status line says. */
  private static double spent(Search search) {
    Search.Spending s = search.spending();
    return s.measuring() + s.attached();
  }

  /**
   * How a search ended, one of {@link #OUTCOMES}: {@code failed} when it could not be saved, or a step failed;
   * {@code daemon_lost} when a daemon left the cluster; then by its end reason.
   */
  static String outcome(boolean saved, boolean daemonLost, String endReason) {
    if (!saved || endReason == null || endReason.startsWith(SearchRunner.STEP_FAILED)) {
      return "failed";
    }
    if (daemonLost) {
      return "daemon_lost";
    }
    if (endReason.equals(Search.CONVERGED)) {
      return "converged";
    }
    if (endReason.equals(Search.TIME_LIMIT)) {
      return "time_limit";
    }
    return endReason.startsWith(SearchRunner.TARGET_EXITED) ? "target_exited" : "stopped";
  }
}
