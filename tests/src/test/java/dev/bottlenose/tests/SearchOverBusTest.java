package dev.bottlenose.tests;

import dev.bottlenose.bus.Addresses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.json.Json;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Searches;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.ContendedWorkload;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import dev.bottlenose.tests.workloads.SleepyWorkload;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Whole searches over the event bus: the consultant in this JVM (a cluster member), a real daemon process
 * per target JVM. Settings are shortened (0.5 s intervals, 2 s of consistent evidence) so a search walks
 * from the top node to a method within the time limits of a test. The CPU-hot search runs at the default
 * budget (0.05): the daemon's sampled call graph hints the hot method (Deep Start) and prunes the ~130
 * loaded packages the program did not run in. The others raise the budget to 0.2 with 256 active
 * experiments, as testing every package of the target at once needs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class SearchOverBusTest {
  private static final ResourcePath BURN =
      ResourcePath.parse("/Code/dev.bottlenose.tests.workloads/HotMethodWorkload/burn()J");
  private static final ResourcePath CONTEND =
      ResourcePath.parse("/Code/dev.bottlenose.tests.workloads/ContendedWorkload/contend(J)J");
  private static final Predicate<ShgNode> IN_BURN = Searches.trueAt("cpu_bound", BURN);
  private static final Duration MAX_TIME = Duration.ofSeconds(90);

  private Bus bus;
  private Path dataDirectory;
  private String hotSearchId;

  @BeforeAll
  void start() throws Exception {
    bus = Bus.join();
    dataDirectory = Files.createTempDirectory("bottlenose-searches-");
  }

  @AfterAll
  void stop() throws Exception {
    bus.close();
    try (Stream<Path> files = Files.walk(dataDirectory)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  @Order(1)
  void aCpuHotMethodIsFoundCpuBoundAndNothingIsLeftBehind() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      hotSearchId = "hot-" + target.pid();
      List<JsonObject> events = new CopyOnWriteArrayList<>();
      MessageConsumer<JsonObject> listener = bus.vertx().eventBus().consumer(Addresses.searchEvents(hotSearchId),
          m -> events.add(m.body()));
      SearchRunner runner = SearchRunner.start(bus.vertx(), List.of(daemon.id()),
          Searches.atDefaultBudget(hotSearchId, MAX_TIME), dataDirectory, "an end-to-end test");

      try {
        Searches.awaitFound(runner, MAX_TIME, IN_BURN);
        // The 30 s goal is a speed goal: it belongs to a benchmark, not to a test on a shared machine. The
        // test asserts the right answer and records how long it took.
        Searches.foundWithin(runner, IN_BURN, "cpu_bound true at " + BURN, MAX_TIME);
      } catch (AssertionError e) {
        runner.stop("test failed");
        throw e;
      }
      JsonObject graph = bus.request(Addresses.searchGraph(hotSearchId), new JsonObject());
      assertThat(graph.encode()).contains(BURN.toString());

      bus.request(Addresses.searchStop(hotSearchId), new JsonObject().put("reason", "found it"));
      long stoppedAt = System.nanoTime();
      Path saved;
      try {
        saved = runner.saved().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new AssertionError("not saved 60 s after the stop; ended: " + runner.search().endReason() + "; the graph:\n"
            + runner.search().graph().toText(), e);
      }
      System.out.println("saved " + (System.nanoTime() - stoppedAt) / 1_000_000 + " ms after the stop");
      assertThat(saved).exists();
      assertThat(runner.search().endReason()).isEqualTo("found it");
      Searches.assertNothingLeft(bus, daemon);
      await().atMost(Duration.ofSeconds(5)).until(() -> events.stream().anyMatch(e -> "searchEnded".equals(e.getString("type"))));
      assertThat(events).anyMatch(e -> "nodeChanged".equals(e.getString("type")) && e.encode().contains(BURN.toString())
          && "true".equals(e.getJsonObject("node").getString("state")));
      listener.unregister();
    }
  }

  @Test
  @Order(2)
  void theSavedSearchReopensWithTheTruePath() throws Exception {
    assertThat(hotSearchId).as("the CPU-hot search ran first").isNotNull();
    SearchStore store = new SearchStore(dataDirectory);
    assertThat(store.list()).anyMatch(s -> s.id().equals(hotSearchId) && s.trueNodes() >= 3);
    SavedSearch saved = store.open(hotSearchId);
    assertThat(Searches.first(saved.graph(), IN_BURN)).isPresent();
    assertThat(Json.write(saved.graph().toJson())).contains(BURN.toString());
    assertThat(saved.graph().toDot(saved.hypotheses())).contains("burn()J");
    assertThat(saved.series()).anyMatch(s -> s.request().focus().get(Hierarchy.CODE) != null
        && s.request().focus().get(Hierarchy.CODE).equals(BURN) && !s.points().isEmpty());
  }

  @Test
  @Order(3)
  void aMostlyAsleepProgramHasNoTopLevelBottleneck() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, SleepyWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      SearchRunner runner = SearchRunner.start(bus.vertx(), List.of(daemon.id()),
          Searches.fast("sleepy-" + target.pid(), Duration.ofSeconds(20)), dataDirectory, "an end-to-end test");
      runner.saved().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      SearchHistoryGraph graph = runner.search().graph();
      ShgNode top = graph.nodes().get(0);
      assertThat(top.hypothesis()).isEqualTo(HypothesisCatalog.TOP);
      assertThat(graph.children(top.id())).as(graph.toText()).isNotEmpty()
          .allSatisfy(n -> assertThat(n.state()).as(n.hypothesis() + ": " + n.reason()).isNotEqualTo(NodeState.TRUE));
      assertThat(graph.children(top.id())).as("tested, not all left untested:\n" + graph.toText())
          .anyMatch(n -> n.state() == NodeState.FALSE);
      Searches.assertNothingLeft(bus, daemon);
    }
  }

  @Test
  @Order(4)
  void aContendedMonitorIsExcessiveSyncWaitingInTheContendingMethod() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, ContendedWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      Predicate<ShgNode> inContend = Searches.trueAt("sync_wait", CONTEND);
      SearchRunner runner = Searches.runUntil(bus, daemon, Searches.fast("contended-" + target.pid(), MAX_TIME),
          dataDirectory, inContend);

      Searches.foundWithin(runner, inContend, "sync_wait true at " + CONTEND, MAX_TIME);
      Searches.assertNothingLeft(bus, daemon);
    }
  }
}
