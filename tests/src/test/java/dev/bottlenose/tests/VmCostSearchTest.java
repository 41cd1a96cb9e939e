package dev.bottlenose.tests;

import dev.bottlenose.bus.Addresses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.consultant.bus.DaemonProtocol;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.Searches;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.ChurnWorkload;
import dev.bottlenose.tests.workloads.MegamorphicWorkload;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches for VM costs on targets with a planted cause, over the event bus with the end-to-end settings
 * ({@link Searches#fast}): tiny megamorphic calls make method-call overhead, below CPU-bound, true at the
 * called method; allocation churn in a small heap makes GC / memory pressure true and allocation
 * concentrated in the allocating method and in the allocated type; each within 30 s of search time.
 * Method-call overhead counts every call with a bytecode probe: about 1.2 ns a call in compiled code,
 * a third of what the tiny calls it counts cost as calls, but with some 500 million calls a second that
 * is 0.3 of the target's CPU, so that search runs with a budget of half the target's CPU; the allocation search uses JFR's
 * allocation samples (with stacks), which cost the agent more than 5% of the churn's CPU, so it runs at
 * 0.2 like the sync and I/O searches.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VmCostSearchTest {
  private static final String PACKAGE = "/Code/dev.bottlenose.tests.workloads/";
  private static final ResourcePath MIX_APPLY = ResourcePath.parse(PACKAGE + "MegamorphicWorkload$Mix/apply(J)J");
  private static final ResourcePath CALL_MANY = ResourcePath.parse(PACKAGE + "MegamorphicWorkload/callMany()J");
  private static final ResourcePath STEPS = ResourcePath.parse(PACKAGE
      + "MegamorphicWorkload/steps([Ldev/bottlenose/tests/workloads/MegamorphicWorkload$Step;J)J");
  private static final ResourcePath MAIN = ResourcePath.parse(PACKAGE + "MegamorphicWorkload/main([Ljava/lang/String;)V");
  private static final ResourcePath CHURN = ResourcePath.parse(PACKAGE + "ChurnWorkload/churn()J");
  private static final ResourcePath PARTICLE = ResourcePath.parse("/Memory/dev.bottlenose.tests.workloads.ChurnWorkload$Particle");
  private static final Duration SEARCH_TIME = Duration.ofSeconds(30);
  /**
   * The megamorphic method's node reached 0.91 against 0.1 and was still testing at 30 s in two runs of three,
   * started late behind the nodes queued before it (why it starts later than it did is not pinned down yet).
   */
  private static final Duration MEGAMORPHIC_TIME = Duration.ofSeconds(45);

  @TempDir
  Path data;
  private Bus bus;

  @BeforeAll
  void start() throws Exception {
    bus = Bus.join();
  }

  @AfterAll
  void stop() throws Exception {
    bus.close();
  }

  @Test
  void theDaemonsSampledCallGraphListsCalleesAndRefusesOtherHierarchies() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, MegamorphicWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      JsonObject calls = awaitCallGraph(daemon, new JsonObject().put("path", MAIN.toString()), "callees of " + MAIN,
          answer -> !answer.getJsonArray("children").isEmpty());
      assertThat(calls.getJsonArray("children").stream().map(o -> ((JsonObject) o).getString("path")))
          .as("callees of main in the sampled call graph: %s", calls).contains(CALL_MANY.toString());
      assertThat(calls.getJsonArray("children").stream().map(o -> ((JsonObject) o).getString("relation"))).containsOnly("calls");
      // the first samples may all fall in apply or in callMany (where steps is compiled in), so wait for steps
      JsonObject all = awaitCallGraph(daemon, new JsonObject().put("limit", 5), "steps among the hot methods",
          answer -> answer.getJsonArray("hot").stream().anyMatch(o -> ((JsonObject) o).getString("method").equals(STEPS.toString())));
      List<Long> self = all.getJsonArray("hot").stream().map(o -> ((JsonObject) o).getLong("self")).toList();
      assertThat(self).as("hot methods by self samples").isSortedAccordingTo(Comparator.reverseOrder());
      assertThat(all.getJsonArray("children").stream().map(o -> ((JsonObject) o).getString("path")))
          .contains(PACKAGE.substring(0, PACKAGE.length() - 1));
      assertThatThrownBy(() -> bus.request(Addresses.callGraph(daemon.id()), new JsonObject().put("path", "/Threads/main")))
          .isInstanceOf(ReplyException.class).hasMessageContaining("/Threads/main is not /Code");
      assertThatThrownBy(() -> bus.request(Addresses.callGraph(daemon.id()), new JsonObject().put("graph", "wall")))
          .isInstanceOf(ReplyException.class)
          .hasMessageContaining("graph must be one of cpu (on the CPU (execution samples)); wait (waiting")
          .hasMessageContaining("is 'wall'");
    }
  }

  @Test
  void tinyMegamorphicCallsAreMethodCallOverheadInTheCalledMethod() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, MegamorphicWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      Predicate<ShgNode> inMethod = Searches.trueAt("method_call_overhead", MIX_APPLY);
      SearchRunner runner = Searches.runUntil(bus, daemon,
          Searches.fast("megamorphic-" + target.pid(), MEGAMORPHIC_TIME).withBudget(0.5), data, inMethod);
      printUndecided(runner);

      Searches.foundWithin(runner, inMethod, "method_call_overhead true at " + MIX_APPLY, MEGAMORPHIC_TIME);
      SearchHistoryGraph graph = runner.search().graph();
      assertThat(graph.find("method_call_overhead", Focus.WHOLE_PROGRAM)).as("probes cannot cover the whole program").isNull();
      ShgNode inPackage = graph.find("method_call_overhead", Focus.of(MIX_APPLY.parent().parent()));
      assertThat(graph.edges()).as("asked below CPU-bound in the package").anyMatch(e -> e.to() == inPackage.id()
          && graph.node(e.from()).hypothesis().equals("cpu_bound"));
      Searches.assertNothingLeft(bus, daemon);
    }
  }

  /**
   * At a budget of a tenth of the target's CPU the package's counters cost about three times the budget: the
   * node is measured in short bursts, resting between them while the budget saves up (before bursts it ended
   * unknown, "measured cost … exceeds the whole budget"), and method-call overhead is found in the package, at
   * the package or a class or method below it. At 5% the package's one-time cost (its methods compiled again,
   * in and out) is predicted above what 30 s of the budget saves up.
   */
  @Test
  void underASmallBudgetCountersCostingMoreThanItAreMeasuredInBursts() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, MegamorphicWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      ResourcePath pkg = MIX_APPLY.parent().parent();
      Predicate<ShgNode> inPackage = n -> n.state() == NodeState.TRUE && n.hypothesis().equals("method_call_overhead")
          && pkg.contains(n.focus().get(pkg.hierarchy()));
      Duration limit = Duration.ofSeconds(120);
      SearchRunner runner = Searches.runUntil(bus, daemon, Searches.atDefaultBudget("bursts-" + target.pid(), limit)
          .withBudget(0.1).with("search.skip", "sync_wait,io_wait,memory_pressure"), data, inPackage);
      printUndecided(runner);

      Searches.foundWithin(runner, inPackage, "method_call_overhead true in " + pkg, limit);
      ShgNode wholePackage = runner.search().graph().find("method_call_overhead", Focus.of(pkg));
      assertThat(wholePackage.observedCost()).as("what the package's counters cost while they ran: more than the budget")
          .isGreaterThan(0.1);
      Searches.assertNothingLeft(bus, daemon);
    }
  }

  @Test
  void allocationChurnIsAllocationConcentratedInTheAllocatingMethodAndType() throws Exception {
    try (TargetJvm target = TargetJvm.start(Jdk.JDK17, ChurnWorkload.class, "-Xmx64m");
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms")) {
      bus.awaitRunning(daemon);
      Predicate<ShgNode> inMethod = Searches.trueAt("allocation_share", CHURN);
      Predicate<ShgNode> ofType = Searches.trueAt("allocation_share", PARTICLE);
      Predicate<ShgNode> pressure = n -> n.state() == NodeState.TRUE && n.hypothesis().equals("memory_pressure")
          && n.focus().equals(Focus.WHOLE_PROGRAM);
      SearchRunner runner = Searches.runUntil(bus, daemon, Searches.fast("churn-" + target.pid(), SEARCH_TIME), data,
          inMethod, ofType, pressure);

      Searches.foundWithin(runner, pressure, "memory_pressure true", SEARCH_TIME);
      Searches.foundWithin(runner, inMethod, "allocation_share true at " + CHURN, SEARCH_TIME);
      Searches.foundWithin(runner, ofType, "allocation_share true at " + PARTICLE, SEARCH_TIME);
      Searches.assertNothingLeft(bus, daemon);
    }
  }

  private JsonObject awaitCallGraph(DaemonProcess daemon, JsonObject request, String what, Predicate<JsonObject> until)
      throws Exception {
    JsonObject[] last = new JsonObject[1];
    try {
      await(what).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
        last[0] = bus.request(Addresses.callGraph(daemon.id()), request);
        return until.test(last[0]);
      });
    } catch (ConditionTimeoutException e) {
      JsonObject all = bus.request(Addresses.callGraph(daemon.id()), new JsonObject().put("limit", 10));
      throw new AssertionError(e.getMessage() + "; last answer " + last[0] + "; the whole call graph: " + all, e);
    }
    return last[0];
  }

  /**
   * The nodes not found true that measured at the whole program's code, and those in the workloads'
   * package (-1: never tested), with their times and reasons, to show where a slow search waited.
   */
  private static void printUndecided(SearchRunner runner) {
    long start = runner.search().startedAtMillis();
    ResourcePath workloads = MIX_APPLY.parent().parent();
    StringBuilder sb = new StringBuilder("nodes tested and not true:\n");
    for (ShgNode n : runner.search().graph().nodes()) {
      ResourcePath code = n.focus().get(workloads.hierarchy());
      if (n.state() != NodeState.TRUE && (code.isRoot() ? n.testedSinceMillis() > 0 : workloads.contains(code))) {
        long since = n.testedSinceMillis() == 0 ? -1 : n.testedSinceMillis() - start;
        long concluded = n.concludedAtMillis() == 0 ? -1 : n.concludedAtMillis() - start;
        sb.append(String.format(Locale.ROOT, "  %6d ms .. %6d ms  %s %s %s: %s%n", since, concluded,
            n.state(), n.hypothesis(), n.focus(), n.reason()));
      }
    }
    System.out.print(sb);
  }
}
