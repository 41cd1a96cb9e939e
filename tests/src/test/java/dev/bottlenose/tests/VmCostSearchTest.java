package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.SearchOptions;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.DaemonProtocol;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.ChurnWorkload;
import dev.bottlenose.tests.workloads.MegamorphicWorkload;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Searches for the VM costs below CPU-bound on targets with a planted cause, over the event bus: tiny
 * megamorphic calls make method-call overhead true at the called method, allocation churn makes
 * object-creation overhead true at the allocating method. Both metrics count every call or allocation
 * with a bytecode probe, which costs more than the overhead it measures, so these searches run with a
 * budget of half the target's CPU (settings shortened as in {@link SearchOverBusTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VmCostSearchTest {
  private static final String PACKAGE = "/Code/dev.bottlenose.tests.workloads/";
  private static final ResourcePath MIX_APPLY = ResourcePath.parse(PACKAGE + "MegamorphicWorkload$Mix/apply(J)J");
  private static final ResourcePath CALL_MANY = ResourcePath.parse(PACKAGE + "MegamorphicWorkload/callMany()J");
  private static final ResourcePath CHURN = ResourcePath.parse(PACKAGE + "ChurnWorkload/churn()J");

  private Bus bus;
  private Path dataDirectory;

  @BeforeAll
  void start() throws Exception {
    bus = Bus.join();
    dataDirectory = Files.createTempDirectory("bottlenose-vm-cost-");
  }

  @AfterAll
  void stop() throws Exception {
    bus.close();
    try (Stream<Path> files = Files.walk(dataDirectory)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void tinyMegamorphicCallsAreMethodCallOverheadInTheCalledMethod() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, MegamorphicWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      JsonObject calls = awaitCallees(daemon, CALL_MANY);
      assertThat(calls.getJsonArray("children").stream().map(o -> ((JsonObject) o).getString("path")))
          .as("callees of callMany in the sampled call graph: %s", calls).contains(MIX_APPLY.toString());
      search(daemon, "megamorphic-" + target.pid(), "method_call_overhead", MIX_APPLY);
    }
  }

  @Test
  void allocationChurnIsObjectCreationOverheadInTheAllocatingMethod() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, ChurnWorkload.class, "-Xmx64m");
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      search(daemon, "churn-" + target.pid(), "object_creation_overhead", CHURN);
    }
  }

  private JsonObject awaitCallees(DaemonProcess daemon, ResourcePath method) {
    JsonObject[] last = new JsonObject[1];
    await("callees of " + method).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> {
      last[0] = bus.request(DaemonProtocol.callGraph(daemon.id()), new JsonObject().put("path", method.toString()));
      return !last[0].getJsonArray("children").isEmpty();
    });
    return last[0];
  }

  private void search(DaemonProcess daemon, String searchId, String hypothesis, ResourcePath method) throws Exception {
    SearchRunner runner = SearchRunner.start(bus.vertx(), List.of(daemon.id()), options(searchId), dataDirectory);
    try {
      await(hypothesis + " true at " + method).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
          .until(() -> trueAt(runner.search().graph(), hypothesis, method));
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(e.getMessage() + "; the graph:\n" + runner.search().graph().toText(), e);
    } finally {
      runner.stop("found it");
      runner.saved().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    ShgNode found = runner.search().graph().nodes().stream().filter(n -> n.state() == NodeState.TRUE
        && n.hypothesis().equals(hypothesis) && method.equals(n.focus().get(Hierarchy.CODE))).findFirst().orElseThrow();
    long tookMillis = found.concludedAtMillis() - runner.search().startedAtMillis();
    System.out.println(hypothesis + " at " + method + " decided " + tookMillis + " ms after the search started");
    assertThat(runner.search().graph().toText()).as("found below CPU-bound").contains("cpu_bound");
    JsonObject ledger = bus.request(DaemonProtocol.ledger(daemon.id()), new JsonObject());
    assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
    assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
    JsonObject metrics = bus.request(DaemonProtocol.metricsList(daemon.id()), new JsonObject());
    assertThat(metrics.getJsonArray("active")).as("metrics left enabled").isEmpty();
  }

  private static SearchOptions options(String id) {
    return SearchOptions.of(id).with("search.sampling_interval_seconds", "0.5").with("search.min_observation_seconds", "0.5")
        .with("search.sufficient_seconds", "2").withBudget(0.5).withMaxTime(Duration.ofSeconds(60));
  }

  private static boolean trueAt(SearchHistoryGraph graph, String hypothesis, ResourcePath method) {
    return graph.nodes().stream().anyMatch(n -> n.state() == NodeState.TRUE && n.hypothesis().equals(hypothesis)
        && method.equals(n.focus().get(Hierarchy.CODE)));
  }
}
