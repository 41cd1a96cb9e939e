package dev.bottlenose.web.service;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.SearchEvents;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.Search;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.consultant.Settings;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.SearchAnnouncer;
import dev.bottlenose.consultant.bus.SearchRunner;
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
  /** Who runs this service's searches, as the cluster is told ({@code SearchAnnouncer}). */
  static final String STARTED_BY = "bottlenose serve";
  /** The built-in hypotheses, whose units the status dots' families are in. */
  private static final HypothesisCatalog BUILT_IN = HypothesisCatalog.of(Settings.defaults());
  private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private final Vertx vertx;
  private final Path dataDirectory;
  private final SearchStore store;
  private final Map<String, Live> live = new ConcurrentHashMap<>();
  private final Map<String, Latest> latestByDaemon = new ConcurrentHashMap<>();
  private final Map<String, SearchHistoryGraph> endedGraphs = new ConcurrentHashMap<>();
  private final Consumer<Live> started;
  private final Consumer<ShgEventBody> events;

  /** A daemon's latest search of this service: its id and start. */
  private record Latest(String searchId, long startedAtMillis) {}

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
            request.options().with(DAEMONS_SETTING, String.join(",", request.daemons())), dataDirectory, STARTED_BY), false)
        .onFailure(e -> consumer.unregister())
        .map(runner -> {
          Live l = new Live(runner, request.daemons());
          l.consumer = consumer;
          live.put(id, l);
          Latest latest = new Latest(id, runner.search().startedAtMillis());
          request.daemons().forEach(d -> latestByDaemon.put(d, latest));
          long interval = Math.max(100, runner.search().settings().millis("search.sampling_interval_seconds"));
          l.budgetTimer = vertx.setPeriodic(interval, t -> events.accept(new ShgEventBody(id, budgetEvent(l))));
          runner.saved().onComplete(ar -> ended(l, ar.succeeded()));
          started.accept(l);
          return l;
        });
  }

  /**
   * The search is saved (or its saving failed): it leaves the running ones, and {@code searchSaved} tells its page
   * that what it reads of the search now comes from the file (the findings with their lock holders).
   */
  private void ended(Live l, boolean saved) {
    vertx.cancelTimer(l.budgetTimer);
    l.consumer.unregister();
    endedGraphs.put(l.id(), l.search().graph());
    endedGraphs.keySet().removeIf(id -> latestByDaemon.values().stream().noneMatch(latest -> latest.searchId().equals(id)));
    live.remove(l.id());
    events.accept(new ShgEventBody(l.id(), new JsonObject().put("type", "searchSaved").put("searchId", l.id()).put("saved", saved)));
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

  /**
   * The JVM status dots of {@code daemonId}: the top-level hypotheses of its latest search, this service's or, when
   * it started later, {@code elsewhere}'s (another member's, null: none), each naming its search and whether this
   * service runs or keeps it ({@code own}).
   */
  JsonArray status(String daemonId, SearchEvents.Announcement elsewhere) {
    Latest latest = latestByDaemon.get(daemonId);
    if (elsewhere != null && (latest == null || elsewhere.startedAtMillis() > latest.startedAtMillis())) {
      return dots(elsewhere.families(), elsewhere.searchId(), false);
    }
    if (latest == null) {
      return new JsonArray();
    }
    String id = latest.searchId();
    Live l = live.get(id);
    SearchHistoryGraph graph = l != null ? l.search().graph() : endedGraphs.get(id);
    if (graph == null) {
      return new JsonArray();
    }
    Settings settings = l != null ? l.search().settings() : Settings.defaults();
    return dots(SearchAnnouncer.families(graph, settings), id, true);
  }

  /** The status dots of {@code families}, each with the words its value is written with ({@link Findings#unitWords}). */
  private static JsonArray dots(List<SearchEvents.Family> families, String searchId, boolean own) {
    return new JsonArray(families.stream().map(f -> (Object) f.toJson().put("unit", Findings.unitWords(BUILT_IN.get(f.family())))
        .put("searchId", searchId).put("own", own)).toList());
  }

  /** Reads the saved searches once at start, newest first, so each daemon's status dots come from its latest one. */
  void rememberSaved() {
    vertx.executeBlocking(() -> {
      for (SearchStore.Summary s : store.list()) {
        SavedSearch saved = store.open(s.id());
        String daemons = saved.settings().get(DAEMONS_SETTING);
        if (daemons != null) {
          for (String d : daemons.split(",")) {
            if (latestByDaemon.putIfAbsent(d, new Latest(s.id(), s.startedAtMillis())) == null) {
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
}
