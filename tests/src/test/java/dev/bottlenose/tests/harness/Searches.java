package dev.bottlenose.tests.harness;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.DaemonProtocol;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.assertj.core.api.Assertions;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** A search over the bus against its daemons, run until what it should find is found, and what is left behind. */
public final class Searches {
  private Searches() {}

  /**
   * The end-to-end searches' settings: 0.5 s intervals and 0.5 s of minimum observation, 2 s of consistent
   * evidence, a budget of 0.2 with 256 active experiments (a target has about 130 loaded packages, all
   * tested at once), and the time limit.
   */
  public static SearchOptions fast(String id, Duration maxTime) {
    return SearchOptions.of(id).with("search.sampling_interval_seconds", "0.5").with("search.min_observation_seconds", "0.5")
        .with("search.sufficient_seconds", "2").with("search.max_active_experiments", "256").withBudget(0.2)
        .withMaxTime(maxTime);
  }

  /** {@link #fast}'s shortened settings at the default budget (0.05) and number of active experiments. */
  public static SearchOptions atDefaultBudget(String id, Duration maxTime) {
    return SearchOptions.of(id).with("search.sampling_interval_seconds", "0.5").with("search.min_observation_seconds", "0.5")
        .with("search.sufficient_seconds", "2").withMaxTime(maxTime);
  }

  /**
   * Runs a search until every one of {@code wanted} matches a node or the search ends by itself, then stops
   * it and waits until it is saved (every measurement released); returns the runner.
   */
  @SafeVarargs
  public static SearchRunner runUntil(Bus bus, DaemonProcess daemon, SearchOptions options, Path dataDirectory,
      Predicate<ShgNode>... wanted) throws Exception {
    return runUntil(bus, List.of(daemon), options, dataDirectory, wanted);
  }

  /** As {@link #runUntil(Bus, DaemonProcess, SearchOptions, Path, Predicate[])}, one search over several daemons. */
  @SafeVarargs
  public static SearchRunner runUntil(Bus bus, List<DaemonProcess> daemons, SearchOptions options, Path dataDirectory,
      Predicate<ShgNode>... wanted) throws Exception {
    SearchRunner runner = SearchRunner.start(bus.vertx(), daemons.stream().map(DaemonProcess::id).toList(), options,
        dataDirectory, "an end-to-end test");
    try {
      awaitFound(runner, Duration.ofSeconds(120), wanted);
    } finally {
      runner.stop("found it");
      runner.saved().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    printTrueNodes(runner);
    return runner;
  }

  /**
   * Waits until every one of {@code wanted} matches a node or the search ends by itself; fails with the graph
   * when neither happens within {@code atMost}.
   */
  @SafeVarargs
  public static void awaitFound(SearchRunner runner, Duration atMost, Predicate<ShgNode>... wanted) {
    try {
      Awaitility.await("search " + runner.search().id()).atMost(atMost).pollInterval(Duration.ofMillis(250))
          .until(() -> runner.search().isFinished() || List.of(wanted).stream()
              .allMatch(w -> runner.search().graph().nodes().stream().anyMatch(w)));
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(e.getMessage() + "; the graph:\n" + runner.search().graph().toText(), e);
    }
  }

  /** Each true node with when it started measuring and when it was decided, in ms of search. */
  private static void printTrueNodes(SearchRunner runner) {
    long start = runner.search().startedAtMillis();
    StringBuilder sb = new StringBuilder("search " + runner.search().id() + " (" + runner.search().endReason() + "), true nodes:\n");
    for (ShgNode n : runner.search().graph().nodes()) {
      if (n.state() == NodeState.TRUE && n.concludedAtMillis() > 0) {
        sb.append(String.format(java.util.Locale.ROOT, "  %6d ms .. %6d ms  %s %s%n", n.testedSinceMillis() - start,
            n.concludedAtMillis() - start, n.hypothesis(), n.focus()));
      }
    }
    System.out.print(sb);
  }

  /** A true node of {@code hypothesis} whose focus is {@code path} on that path's hierarchy. */
  public static Predicate<ShgNode> trueAt(String hypothesis, ResourcePath path) {
    return n -> n.state() == NodeState.TRUE && n.hypothesis().equals(hypothesis) && path.equals(n.focus().get(path.hierarchy()));
  }

  public static Optional<ShgNode> first(SearchHistoryGraph graph, Predicate<ShgNode> wanted) {
    return graph.nodes().stream().filter(wanted).findFirst();
  }

  /** The node {@code wanted} ({@code what}, for messages); fails unless it was concluded within {@code limit} of the start. */
  public static ShgNode foundWithin(SearchRunner runner, Predicate<ShgNode> wanted, String what, Duration limit) {
    SearchHistoryGraph graph = runner.search().graph();
    ShgNode node = first(graph, wanted).orElseThrow(() -> new AssertionError("no " + what + " in the graph:\n" + graph.toText()));
    long took = node.concludedAtMillis() - runner.search().startedAtMillis();
    System.out.println(what + " after " + took + " ms of search");
    Assertions.assertThat(took).as("ms of search to " + what).isLessThanOrEqualTo(limit.toMillis());
    return node;
  }

  /** Fails unless the daemon holds nothing a search left: no probes, no sources, no enabled metric. */
  public static void assertNothingLeft(Bus bus, DaemonProcess daemon) throws Exception {
    JsonObject ledger = ledger(bus, daemon);
    Assertions.assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
    Assertions.assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
    Assertions.assertThat(activeMetrics(bus, daemon)).as("metrics left enabled").isEmpty();
  }

  /** The daemon's ledger: probes ({@code entries}) and sources every session holds. */
  public static JsonObject ledger(Bus bus, DaemonProcess daemon) throws Exception {
    return bus.request(Addresses.ledger(daemon.id()), new JsonObject());
  }

  /** The metrics still enabled on the daemon. */
  public static io.vertx.core.json.JsonArray activeMetrics(Bus bus, DaemonProcess daemon) throws Exception {
    return bus.request(Addresses.metricsList(daemon.id()), new JsonObject()).getJsonArray("active");
  }
}
