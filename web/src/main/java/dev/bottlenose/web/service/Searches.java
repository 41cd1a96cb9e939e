package dev.bottlenose.web.service;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.Search;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.consultant.Settings;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.Focus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * The searches this service runs and the ones saved in its data directory: start (over {@link
 * SearchRunner}), live events to the hub, stop, and a search's graph whether it runs or was saved.
 * A search's daemons are kept in its settings as {@value #DAEMONS_SETTING}, so a saved search tells
 * which JVMs it covered.
 */
final class Searches {
  static final String DAEMONS_SETTING = "web.daemons";
  static final List<String> FAMILIES = List.of("cpu_bound", "sync_wait", "io_wait", "memory_pressure");
  private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private final Vertx vertx;
  private final Path dataDirectory;
  private final SearchStore store;
  private final Map<String, Live> live = new ConcurrentHashMap<>();
  private final Map<String, String> latestByDaemon = new ConcurrentHashMap<>();
  private final Map<String, SearchHistoryGraph> endedGraphs = new ConcurrentHashMap<>();
  private final Consumer<Live> started;
  private final Consumer<ShgEventBody> events;

  /** One event of a search as it goes to the hub: the search, the event body. */
  record ShgEventBody(String searchId, JsonObject event) {}

  /** A search this service started, until it is saved. */
  static final class Live {
    final SearchRunner runner;
    final List<String> daemons;
    final long startedAtMillis = System.currentTimeMillis();
    MessageConsumer<JsonObject> consumer;
    long budgetTimer = -1;

    Live(SearchRunner runner, List<String> daemons) {
      this.runner = runner;
      this.daemons = daemons;
    }

    String id() {
      return runner.search().id();
    }

    Search search() {
      return runner.search();
    }
  }

  Searches(Vertx vertx, Path dataDirectory, Consumer<Live> started, Consumer<ShgEventBody> events) {
    this.vertx = vertx;
    this.dataDirectory = dataDirectory;
    this.store = new SearchStore(dataDirectory);
    this.started = started;
    this.events = events;
  }

  static String newId() {
    return "s-" + LocalDateTime.now().format(ID_TIME) + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
  }

  /** Starts a checked request: subscribes to its events first, then compiles the rules and starts stepping. */
  Future<Live> start(SearchRequest request) {
    String id = request.options().id();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().localConsumer(Addresses.searchEvents(id),
        m -> events.accept(new ShgEventBody(id, m.body())));
    return vertx.executeBlocking(() -> SearchRunner.start(vertx, request.daemons(),
            request.options().with(DAEMONS_SETTING, String.join(",", request.daemons())), dataDirectory), false)
        .onFailure(e -> consumer.unregister())
        .map(runner -> {
          Live l = new Live(runner, request.daemons());
          l.consumer = consumer;
          live.put(id, l);
          request.daemons().forEach(d -> latestByDaemon.put(d, id));
          long interval = Math.max(100, runner.search().settings().millis("search.sampling_interval_seconds"));
          l.budgetTimer = vertx.setPeriodic(interval, t -> events.accept(new ShgEventBody(id, budgetEvent(l))));
          runner.saved().onComplete(ar -> ended(l));
          started.accept(l);
          return l;
        });
  }

  private void ended(Live l) {
    vertx.cancelTimer(l.budgetTimer);
    l.consumer.unregister();
    endedGraphs.put(l.id(), l.search().graph());
    endedGraphs.keySet().removeIf(id -> !latestByDaemon.containsValue(id));
    live.remove(l.id());
  }

  static JsonObject budgetEvent(Live l) {
    double load = 0;
    for (ShgNode n : l.search().graph().nodes()) {
      if (n.state() == NodeState.TESTING) {
        double cost = Double.isNaN(n.observedCost()) ? n.predictedCost() : n.observedCost();
        load += Double.isNaN(cost) ? 0 : cost;
      }
    }
    return new JsonObject().put("type", "budget").put("fraction", l.search().settings().number("budget.fraction")).put("load", load);
  }

  Live live(String id) {
    return live.get(id);
  }

  List<Live> running() {
    return live.values().stream().sorted((a, b) -> Long.compare(b.startedAtMillis, a.startedAtMillis)).toList();
  }

  /** The store of the saved searches (and the recordings beside them). */
  SearchStore store() {
    return store;
  }

  /** {@code work} on a worker thread (reading a file). */
  <T> Future<T> blocking(java.util.concurrent.Callable<T> work) {
    return vertx.executeBlocking(work, false);
  }

  /** A running search's snapshot, or the saved one; 404 naming the id when there is neither. */
  Future<SavedSearch> open(String id) {
    Live l = live.get(id);
    if (l != null) {
      return vertx.executeBlocking(() -> l.search().toSaved(), false);
    }
    if (id == null || !id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,99}")) {
      return Future.failedFuture(ApiException.notFound("no search '" + id + "'"));
    }
    return vertx.executeBlocking(() -> {
      try {
        return store.open(id);
      } catch (IllegalArgumentException e) {
        if (e.getMessage().startsWith("no saved search")) {
          throw ApiException.notFound("no search '" + id + "' (neither running nor saved in " + dataDirectory + ")");
        }
        throw new IllegalStateException(e.getMessage(), e);
      }
    }, false);
  }

  Future<List<SearchStore.Summary>> saved() {
    return vertx.executeBlocking(store::list, false);
  }

  /** Stop: 404 unknown, 409 ended. */
  JsonObject stop(String id, String reason) {
    Live l = live.get(id);
    if (l == null || l.search().isFinished()) {
      boolean saved = id != null && id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,99}") && java.nio.file.Files.exists(dataDirectory.resolve(id + ".json"));
      if (l == null && endedGraphs.get(id) == null && !saved) {
        throw ApiException.notFound("no running search '" + id + "'");
      }
      throw new ApiException(409, "search '" + id + "' has ended" + (l == null ? "" : ": " + l.search().endReason()));
    }
    l.runner.stop(reason);
    return new JsonObject().put("searchId", id).put("stopping", true);
  }

  /** The JVM status dots of {@code daemonId}: its latest search's top-level hypotheses. */
  JsonArray status(String daemonId) {
    String id = latestByDaemon.get(daemonId);
    if (id == null) {
      return new JsonArray();
    }
    Live l = live.get(id);
    SearchHistoryGraph graph = l != null ? l.search().graph() : endedGraphs.get(id);
    if (graph == null) {
      return new JsonArray();
    }
    Settings settings = l != null ? l.search().settings() : Settings.defaults();
    JsonArray status = new JsonArray();
    for (String family : FAMILIES) {
      ShgNode n = graph.find(family, Focus.WHOLE_PROGRAM);
      JsonObject s = new JsonObject().put("family", family).put("searchId", id);
      if (n == null) {
        status.add(s.put("state", "untested").putNull("value").putNull("threshold").put("confidence", 0.0));
        continue;
      }
      status.add(s.put("state", n.state() == NodeState.STOPPED || n.state() == NodeState.TESTING ? "untested" : n.state().word())
          .put("value", finite(n.value())).put("threshold", finite(n.threshold())).put("confidence", confidence(n, settings)));
    }
    return status;
  }

  /** 1 for a verdict of true or false; for a node under test, the share of the evidence time it has had; else 0. */
  static double confidence(ShgNode n, Settings settings) {
    return switch (n.state()) {
      case TRUE, FALSE -> 1.0;
      case TESTING -> n.testedSinceMillis() == 0 ? 0.0 : Math.min(1.0, (System.currentTimeMillis() - n.testedSinceMillis())
          / (1000.0 * (settings.number("search.sufficient_seconds", 6) + settings.number("search.min_observation_seconds", 1))));
      default -> 0.0;
    };
  }

  /** Reads the saved searches once at start, newest first, so each daemon's status dots come from its latest one. */
  void rememberSaved() {
    vertx.executeBlocking(() -> {
      for (SearchStore.Summary s : store.list()) {
        SavedSearch saved = store.open(s.id());
        String daemons = saved.settings().get(DAEMONS_SETTING);
        if (daemons != null) {
          for (String d : daemons.split(",")) {
            if (latestByDaemon.putIfAbsent(d, s.id()) == null) {
              endedGraphs.put(s.id(), saved.graph());
            }
          }
        }
      }
      return null;
    }, false);
  }

  static List<String> daemonsOf(SavedSearch s) {
    String d = s.settings().get(DAEMONS_SETTING);
    return d == null || d.isEmpty() ? List.of() : Arrays.asList(d.split(","));
  }

  /** Stops every running search (the service is shutting down) and waits until each is saved. */
  Future<Void> stopAll(String reason) {
    List<Future<Path>> saving = live.values().stream().map(l -> {
      l.runner.stop(reason);
      return l.runner.saved();
    }).toList();
    return Future.join(saving).mapEmpty();
  }

  private static Object finite(double d) {
    return Double.isNaN(d) || Double.isInfinite(d) ? null : d;
  }
}
