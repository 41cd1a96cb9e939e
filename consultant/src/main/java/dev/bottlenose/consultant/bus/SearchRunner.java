package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.consultant.SamplingPeriod;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.Search;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.SearchJournal;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.consultant.rules.RuleBook;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.json.Json;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one {@link Search} against daemons on the event bus: a step per sampling interval on a Vert.x timer
 * (on a worker thread, since the oracle blocks), every SHG event published on {@link Addresses#searchEvents}, the
 * graph answered on {@link Addresses#searchGraph}, stop on {@link Addresses#searchStop}. When the search ends, every
 * measurement is released
 * (and the daemons have answered every disable) before it is saved to the {@link SearchStore}.
 */
public final class SearchRunner {
  /** How a search's end reason starts when its target exited (then the daemon's reason follows). */
  public static final String TARGET_EXITED = "target exited";
  /** How a search's end reason starts when a step failed (then the failure follows). */
  public static final String STEP_FAILED = "a step failed";
  /** Where searches are saved unless told otherwise. */
  public static final Path DEFAULT_DATA_DIRECTORY = Path.of("data", "searches");
  private static final int MAX_FAILED_STEPS = 3;
  private static final long SOON_MILLIS = 20;
  private static final int HOT_METHODS = 10;
  private static final double MIN_HINT_SHARE = 0.05;
  private static final long HINT_WINDOW_MILLIS = 10_000;
  /** How often the I/O hints are asked for again, all through the search. */
  private static final long IO_HINT_EVERY_MILLIS = 2_000;
  private static final String IO_WAIT = "io_wait";
  /** The daemons' graphs whose stacks a search keeps: on the CPU, blocked on locks, blocked in I/O. */
  private static final long STACKS_TIMEOUT_MILLIS = 3_000;
  /** How long a daemon has to dump, check and send its JVM's recording (up to 80 MB) as the search ends. */
  private static final long RECORDING_TIMEOUT_MILLIS = 30_000;
  /**
   * The least time between two looks at the lock holders while a search runs: each look is a few thread dumps in
   * the target (a safepoint each), asked only when a new lock-contention node has become true.
   */
  private static final long HOLDERS_EVERY_MILLIS = 10_000;
  private static final String LOCK_CONTENTION = "sync_wait";
  /** How far back the agent's recording keeps events (its {@code maxAge}). */
  private static final long RECORDING_MAX_AGE_MILLIS = 120_000;

  private final Vertx vertx;
  private final List<String> daemonIds;
  private final Search search;
  private final EventBusMeasurementPort port;
  private final EventBusResourceOracle oracle;
  private final SearchStore store;
  private final Promise<Path> saved = Promise.promise();
  private final List<MessageConsumer<JsonObject>> consumers;
  private volatile long timer = -1;
  /** Set while a step runs: the periodic timer and the step after a sample come from different threads. */
  private final AtomicBoolean stepping = new AtomicBoolean();
  private final AtomicBoolean stepSoonPending = new AtomicBoolean();
  /** When the latest step began, epoch ms: the periodic step runs only when no sampled one ran for most of a period. */
  private volatile long lastStepAt = Long.MIN_VALUE / 2;
  private boolean begun;
  private int failedSteps;
  private boolean hinted;
  /** Written by the step's worker alone, one step at a time. */
  private long ioHintedAt;
  private final java.util.Set<ResourcePath> ioHinted = new java.util.HashSet<>();
  private volatile String stopReason;
  private volatile boolean daemonLost;
  private SearchJournal journal;
  private volatile SavedSearch result;
  /** The daemons whose target exited or which left, with why: not asked for a recording as the search ends. */
  private final Map<String, String> gone = new java.util.concurrent.ConcurrentHashMap<>();
  private final SearchAnnouncer announcer;
  /** True lock-contention nodes, counted by the step's worker; those the holders were last asked for. */
  private volatile int lockNodes;
  private int lockNodesAsked;
  private long holdersAskedAtMillis = Long.MIN_VALUE / 2;
  private boolean askingHolders;

  SearchRunner(Vertx vertx, List<String> daemonIds, Search search, EventBusMeasurementPort port, EventBusResourceOracle oracle,
      SearchStore store, String startedBy) {
    this.vertx = vertx;
    this.daemonIds = List.copyOf(daemonIds);
    this.search = search;
    this.port = port;
    this.oracle = oracle;
    this.store = store;
    this.announcer = new SearchAnnouncer(vertx, search, daemonIds, startedBy, store.file(search.id()));
    String id = search.id();
    // to this process's consumers alone (the command's progress, the service's live socket): no cluster lookup per
    // change, and the event's map wrapped as it is (made of JSON's own types; the bus copies it for each consumer)
    DeliveryOptions local = new DeliveryOptions().setLocalOnly(true);
    search.addListener(e -> vertx.eventBus().publish(Addresses.searchEvents(id), new JsonObject(e.toJson()), local));
    port.onTargetGone((daemon, reason) -> {
      gone.put(daemon, reason);
      boolean lost = reason.startsWith(EventBusMeasurementPort.DAEMON_LOST);
      daemonLost |= lost;
      stop(lost ? reason + " (daemon " + daemon + ")" : TARGET_EXITED + " (daemon " + daemon + "): " + reason);
    });
    consumers = List.of(
        vertx.eventBus().<JsonObject>consumer(Addresses.searchGraph(id), m -> graphJson().onComplete(ar -> m.reply(ar.result()))),
        vertx.eventBus().<JsonObject>consumer(Addresses.searchStop(id), m -> {
          String reason = m.body() == null ? null : m.body().getString("reason");
          stop(reason == null ? "stopped over the event bus" : reason);
          m.reply(new JsonObject().put("searchId", id).put("stopping", true));
        }));
  }

  /**
   * Compiles the built-in rules on a thread of its own, so that a command can do it while it joins the cluster and
   * gets its daemons (compiling them takes seconds the first time in a process; a search started later finds them
   * ready). Idempotent; a failure shows again, with its message, when a search loads the rules.
   */
  public static void prepareRules() {
    Thread t = new Thread(() -> {
      try {
        RuleBook.load(null);
      } catch (RuntimeException e) {
        // the search that needs them compiles them again and reports the error
      }
    }, "bottlenose-rules");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Creates the port, the oracle and the search over {@code daemonIds} and starts stepping it, announced to the
   * cluster as started by {@code startedBy} (the command that runs it, e.g. {@code bottlenose search}).
   */
  public static SearchRunner start(Vertx vertx, List<String> daemonIds, SearchOptions options, Path dataDirectory,
      String startedBy) {
    EventBusMeasurementPort port = new EventBusMeasurementPort(vertx, daemonIds, "consultant search " + options.id(),
        SamplingPeriod.millis(options.settings()));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, daemonIds, Duration.ofSeconds(10));
    Search search = Search.create(options, port, oracle, InstantSource.system());
    return new SearchRunner(vertx, daemonIds, search, port, oracle, new SearchStore(dataDirectory), startedBy).start();
  }

  SearchRunner start() {
    try {
      journal = store.journal(search);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot write the search's journal in the data directory: " + e.getMessage(), e);
    }
    long interval = Math.max(10, Math.round(search.settings().number("search.sampling_interval_seconds") * 1000));
    timer = vertx.setPeriodic(0, interval, t -> {
      if (System.currentTimeMillis() - lastStepAt >= interval * 3 / 4) {
        step();
      }
    });
    port.onSampled(this::stepSoon);
    announcer.start();
    return this;
  }

  public Search search() {
    return search;
  }

  /** Whether the search ended early because one of its daemons left the cluster (not a finished search). */
  public boolean daemonLost() {
    return daemonLost;
  }

  /**
   * Asks the search to end at its next end check (the first reason wins). It never waits for the search's lock,
   * which a step holds while it waits for the bus: called on an event loop, that would hold up the reply the step
   * awaits.
   */
  public synchronized void stop(String reason) {
    if (stopReason == null) {
      stopReason = reason;
      search.stop(reason);
    }
  }

  /**
   * Each daemon's sampled stacks on the CPU, on locks, in I/O and allocating as the search ends, kept with it for flame graphs;
   * what a daemon does not answer within {@value #STACKS_TIMEOUT_MILLIS} ms (gone, or busy) is left out.
   */
  private Future<List<SavedSearch.Stacks>> stacks() {
    List<Future<SavedSearch.Stacks>> asked = new ArrayList<>();
    for (String daemon : daemonIds) {
      for (String graph : DaemonRequests.Stacks.KEPT) {
        asked.add(vertx.eventBus().<JsonObject>request(Addresses.stacks(daemon), new DaemonRequests.Stacks(graph, DaemonRequests.Stacks.DEFAULT_MAX).toJson(),
            new DeliveryOptions().setSendTimeout(STACKS_TIMEOUT_MILLIS)).map(m -> {
              DaemonReplies.Stacks s = DaemonReplies.Stacks.from(m.body());
              return new SavedSearch.Stacks(daemon, s.graph(), s.samples(), s.frames().stream()
                  .map(f -> new SavedSearch.Stacks.Frame(f.parent(), f.method().toString(), f.total(), f.self())).toList());
            }));
      }
    }
    return Future.join(asked).transform(ar -> Future.succeededFuture(asked.stream()
        .filter(Future::succeeded).map(Future::result).filter(s -> s.samples() > 0).toList()));
  }

  /**
   * While the search runs, on the event loop: once a lock-contention node more than at the last look has become true,
   * and {@value #HOLDERS_EVERY_MILLIS} ms after the last look at most, who holds the contended locks now, for the
   * findings ({@link Search#lockHolders(List)}) and the page, which hears of it.
   */
  private void lookAtHoldersIfNew() {
    int now = lockNodes;
    long at = System.currentTimeMillis();
    if (askingHolders || now <= lockNodesAsked || at - holdersAskedAtMillis < HOLDERS_EVERY_MILLIS) {
      return;
    }
    askingHolders = true;
    lockNodesAsked = now;
    holdersAskedAtMillis = at;
    holders().onComplete(ar -> {
      askingHolders = false;
      if (ar.succeeded() && !ar.result().isEmpty() && timer >= 0) {
        search.lockHolders(ar.result());
      }
    });
  }

  /**
   * When the search found lock contention (a true {@code sync_wait} node), who holds the contended locks in each of
   * its JVMs and doing what ({@code holders}: a few thread dumps in the target); nothing otherwise, and nothing of a
   * daemon that does not answer within {@value #STACKS_TIMEOUT_MILLIS} ms.
   */
  private Future<List<SavedSearch.LockHolder>> holders() {
    boolean contended = search.graph().nodes().stream()
        .anyMatch(n -> n.hypothesis().equals(LOCK_CONTENTION) && n.state() == NodeState.TRUE);
    if (!contended) {
      return Future.succeededFuture(List.of());
    }
    DaemonRequests.Holders ask = new DaemonRequests.Holders(DaemonRequests.Holders.DEFAULT_LOOKS,
        DaemonRequests.Holders.DEFAULT_INTERVAL_MILLIS);
    List<Future<List<SavedSearch.LockHolder>>> asked = new ArrayList<>();
    for (String daemon : daemonIds) {
      asked.add(vertx.eventBus().<JsonObject>request(Addresses.holders(daemon), ask.toJson(),
          new DeliveryOptions().setSendTimeout(STACKS_TIMEOUT_MILLIS)).map(m -> {
            DaemonReplies.Holders h = DaemonReplies.Holders.from(m.body());
            return h.held().stream().map(x -> new SavedSearch.LockHolder(daemon, x.lock(), x.owner(), x.ownerState(),
                x.ownerStack(), x.seen(), h.looks(), x.waiters(), x.waiterPools())).toList();
          }));
    }
    return Future.join(asked).transform(ar -> Future.succeededFuture(asked.stream()
        .filter(Future::succeeded).flatMap(f -> f.result().stream()).toList()));
  }

  /**
   * Each daemon's JVM's JFR recording as the search ends ({@code recording}: the agent dumps it, the daemon sends its
   * bytes), written beside the saved search ({@link SearchStore#saveRecording}), unless {@code search.keep_recording}
   * is 0; or why there is none (a daemon that does not answer within {@value #RECORDING_TIMEOUT_MILLIS} ms, a JVM
   * without JFR, a file that cannot be written; a daemon whose target exited or which left is not asked). Asked after
   * the search's measurements are released, one daemon after another, each written before the next is asked: the
   * targets dump, and this process holds, one recording at a time. Never fails.
   */
  private Future<List<SavedSearch.Recording>> recordings() {
    if (search.settings().number("search.keep_recording", 1) == 0) {
      return Future.succeededFuture(List.of());
    }
    List<SavedSearch.Recording> kept = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (String daemon : daemonIds) {
      chain = chain.compose(v -> recording(daemon)).map(r -> {
        kept.add(r);
        return null;
      });
    }
    return chain.map(v -> kept);
  }

  /** One daemon's recording, written; or why there is none. */
  private Future<SavedSearch.Recording> recording(String daemon) {
    String why = gone.get(daemon);
    if (why != null) {
      return Future.succeededFuture(SavedSearch.Recording.missing(daemon, why));
    }
    return vertx.eventBus().<Object>request(Addresses.recording(daemon),
            new DaemonRequests.Recording(DaemonRequests.Recording.MAX_BYTES).toJson(),
            new DeliveryOptions().setSendTimeout(RECORDING_TIMEOUT_MILLIS))
        .compose(m -> {
          DaemonReplies.Recording r = DaemonReplies.Recording.from(m.body(), m.headers());
          return vertx.executeBlocking(() -> {
            byte[] bytes = r.bytes().getBytes();
            String file;
            try {
              file = store.saveRecording(search.id(), daemon, bytes);
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException("writing it in the data directory failed: " + e.getMessage(), e);
            }
            long to = r.dumpedAtMillis();
            long from = Math.max(r.recordingStartMillis(), to - RECORDING_MAX_AGE_MILLIS);
            return SavedSearch.Recording.kept(daemon, file, bytes.length, from, to);
          }, false);
        })
        .otherwise(t -> SavedSearch.Recording.missing(daemon, t.getMessage() == null ? t.toString() : t.getMessage()));
  }

  /** The search as it was saved, with the stacks it kept; null until {@link #saved} completes. */
  public SavedSearch result() {
    return result;
  }

  /** Completes with the saved file once the search has ended, its measurements are released and it is saved. */
  public Future<Path> saved() {
    return saved.future();
  }

  private Future<JsonObject> graphJson() {
    return vertx.executeBlocking(() -> {
      synchronized (search) {
        return new JsonObject(Json.write(search.graph().toJson()));
      }
    }, false);
  }

  /**
   * A step shortly after new values came ({@value #SOON_MILLIS} ms, so that the samples of several daemons
   * arriving together make one step): a value that settles a node is weighed when it arrives, not up to a
   * sampling interval later at the periodic step, and the node's refinements start that much sooner. The
   * periodic step runs for what depends on time alone (time limits, the budget's refills) only when no step ran
   * for three quarters of a period: while the daemons' samples come, a step a period, not two (each step weighs
   * every node and every refinement the rules keep, and a second step between two samples had nothing new).
   */
  private void stepSoon() {
    if (timer < 0 || !stepSoonPending.compareAndSet(false, true)) {
      return;
    }
    vertx.setTimer(SOON_MILLIS, t -> {
      stepSoonPending.set(false);
      step();
    });
  }

  private void step() {
    if (timer < 0 || !stepping.compareAndSet(false, true)) {
      return;
    }
    lastStepAt = System.currentTimeMillis();
    vertx.executeBlocking(() -> {
      deepStartHints();
      ioHints();
      if (!begun) {
        begun = true;
        search.begin();
      } else {
        search.advance();
      }
      announcer.step();
      lockNodes = (int) search.graph().nodes().stream()
          .filter(n -> n.hypothesis().equals(LOCK_CONTENTION) && n.state() == NodeState.TRUE).count();
      return search.isFinished();
    }, false).onComplete(ar -> {
      journal.flush();
      if (ar.succeeded()) {
        failedSteps = 0;
        if (ar.result()) {
          finish();
          return;
        }
        lookAtHoldersIfNew();
      } else if (++failedSteps >= MAX_FAILED_STEPS || !begun) {
        finish();
        return;
      } else {
        stop(STEP_FAILED + ": " + ar.cause());
      }
      // a finished search keeps the flag set: no step may start after finish() began
      stepping.set(false);
    });
  }

  /**
   * Deep Start: the methods the daemons' execution samples most often found on top of the stack are
   * hinted to the search, weighted by their share of the samples, as soon as enough samples are in (asked
   * again each step during the search's first {@value #HINT_WINDOW_MILLIS} ms).
   */
  private void deepStartHints() {
    if (hinted || System.currentTimeMillis() - search.startedAtMillis() > HINT_WINDOW_MILLIS) {
      return;
    }
    Map<ResourcePath, Double> hot = oracle.hotMethods(HOT_METHODS);
    hot.forEach((method, share) -> {
      if (share >= MIN_HINT_SHARE) {
        search.hint(method, share, "execution samples");
      }
    });
    hinted = !hot.isEmpty();
  }

  /**
   * Deep Start for I/O: the program's own methods that do its reads, writes and syncs (the topmost of its code
   * on the stacks of the daemons' {@code io} graph, which halves its counts every 30 s) are hinted to {@code
   * io_wait} alone, asked again every {@value #IO_HINT_EVERY_MILLIS} ms all through the search, since I/O comes
   * and goes with a program's phases; each method once. Without them the search walks down to the method from
   * the thread's first frame, a level every 4-5 s.
   */
  private void ioHints() {
    long now = System.currentTimeMillis();
    if (now - ioHintedAt < IO_HINT_EVERY_MILLIS) {
      return;
    }
    ioHintedAt = now;
    oracle.ownIoMethods(HOT_METHODS).forEach((method, share) -> {
      if (share >= MIN_HINT_SHARE && ioHinted.add(method)) {
        search.hint(method, share, "I/O samples", IO_WAIT);
      }
    });
  }

  private void finish() {
    vertx.cancelTimer(timer);
    timer = -1;
    Future<List<SavedSearch.Stacks>> stacks = stacks();
    Future<List<SavedSearch.LockHolder>> holders = holders();
    Future.join(stacks, holders).transform(ar -> port.close())
        .compose(v -> recordings())
        .compose(recordings -> vertx.executeBlocking(() -> {
          // the holders as it ends, else (its JVM gone, the locks free by then) those last seen while it ran
          List<SavedSearch.LockHolder> held = holders.result().isEmpty() ? search.lockHolders() : holders.result();
          result = search.toSaved().withStacks(stacks.result()).withHolders(held)
              .withRecordings(recordings);
          Path file = store.save(result);
          journal.close();
          return file;
        }, false))
        .eventually(announcer::ended)
        .eventually(() -> Future.join(consumers.stream().map(MessageConsumer::unregister).toList()))
        .onComplete(saved);
  }
}
