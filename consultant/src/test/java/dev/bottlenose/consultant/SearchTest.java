package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

class SearchTest {

  private static Search search(ScriptedEngineDriver driver, SearchOptions options) {
    return Search.create(options, driver, PlantedPrograms.oracle(), driver);
  }

  @Test
  void findsTheCpuHotMethodAndLeavesNothingMeasured() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    List<ShgEvent> events = new ArrayList<>();
    Search search = search(driver, SearchOptions.of("cpu-hot").with("search.max_time_seconds", "120"));
    search.addListener(events::add);
    search.begin();

    driver.runToEnd(search, 130);

    assertThat(search.endReason()).isEqualTo("converged: nothing left to test");
    SearchHistoryGraph g = search.graph();
    assertThat(g.find("top", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.TRUE);
    assertThat(g.find("cpu_bound", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.TRUE);
    assertThat(g.find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).isEqualTo(NodeState.TRUE);
    assertThat(g.find("cpu_bound", Focus.of(PlantedPrograms.NAP)).state()).isEqualTo(NodeState.FALSE);
    assertThat(g.find("sync_wait", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.FALSE);
    assertThat(g.find("method_call_overhead", Focus.WHOLE_PROGRAM)).as("probes cannot cover the whole program").isNull();
    assertThat(g.find("method_call_overhead", Focus.of(PlantedPrograms.SPIN.parent().parent())).state()).as("asked in the hot package")
        .isEqualTo(NodeState.FALSE);
    assertThat(g.trueLeaves()).extracting(ShgNode::hypothesis).containsOnly("cpu_bound");
    assertThat(g.trueLeaves()).extracting(n -> n.focus().get(Hierarchy.CODE)).containsOnly(PlantedPrograms.SPIN, Hierarchy.CODE.root());
    assertThat(g.trueLeaves()).extracting(ShgNode::focus).contains(Focus.of(PlantedPrograms.SPIN, PlantedPrograms.MAIN_THREAD));
    ShgNode spin = g.find("cpu_bound", Focus.of(PlantedPrograms.SPIN));
    assertThat(spin.decision()).as("the figures that made it true").isNotNull();
    assertThat(spin.decision().value()).isEqualTo(spin.value()).isGreaterThanOrEqualTo(spin.decision().bar());
    assertThat(spin.decision().bar()).isCloseTo(0.315, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(g.find("cpu_bound", Focus.of(PlantedPrograms.NAP)).decision().bar()).as("false: below the threshold itself").isEqualTo(0.30);
    assertThat(search.findings()).as("the thread's leaf restates the method's").singleElement().satisfies(f -> {
      assertThat(f.hypothesis()).isEqualTo("cpu_bound");
      assertThat(f.focus().get(Hierarchy.CODE)).isEqualTo(PlantedPrograms.SPIN);
    });
    assertThat(driver.live()).isEmpty();
    assertThat(events).last().isEqualTo(new ShgEvent.SearchEnded("cpu-hot", "converged: nothing left to test"));
    assertThat(events).filteredOn(e -> e instanceof ShgEvent.NodeAdded).hasSize(g.nodes().size());
  }

  @Test
  void syncWaitingIsRefinedToTheLockBeforeTheCode() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::contendedLock, PlantedPrograms::cost);
    Search search = search(driver, SearchOptions.of("lock")).begin();

    driver.runToEnd(search, 60);

    ShgNode lock = search.graph().find("sync_wait", Focus.of(PlantedPrograms.CACHE_LOCK));
    ShgNode code = search.graph().find("sync_wait", Focus.of(dev.bottlenose.model.ResourcePath.parse("/Code/com.acme")));
    assertThat(lock.state()).isEqualTo(NodeState.TRUE);
    assertThat(lock.priority()).isLessThan(code.priority());
    MetricRequest lockRequest = new MetricRequest("sync_wait", lock.focus(), dev.bottlenose.model.ConstraintMode.INCLUSIVE);
    MetricRequest codeRequest = new MetricRequest("sync_wait", code.focus(), dev.bottlenose.model.ConstraintMode.INCLUSIVE);
    assertThat(driver.requested().indexOf(lockRequest)).isLessThan(driver.requested().indexOf(codeRequest));
    assertThat(driver.live()).isEmpty();
  }

  @Test
  void aPathWhoseChildrenCouldNotBeListedIsAskedAgainAtTheNextStep() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    TreeOracle tree = PlantedPrograms.oracle();
    ResourcePath acme = PlantedPrograms.SPIN.parent().parent();
    int[] refusals = {1};
    ResourceOracle busy = path -> path.equals(acme) && refusals[0]-- > 0 ? List.of() : tree.children(path);
    Search search = Search.create(SearchOptions.of("busy").with("search.max_time_seconds", "120"), driver, busy, driver).begin();

    driver.runToEnd(search, 130);

    assertThat(refusals[0]).isNegative();
    assertThat(search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).isEqualTo(NodeState.TRUE);
  }

  @Test
  void codeThatRanNothingWhileSampledIsNotRefinedIntoForCpuBound() {
    Search[] searches = withAndWithoutEvidence("sampled", 120, PlantedPrograms::cpuHot,
        (c, n) -> new ResourceChild(c.parent(), c.child(), c.relation(), n));

    assertThat(searches[0].graph().find("cpu_bound", Focus.of(JAVA_UTIL))).as("no samples in java.util").isNull();
    assertThat(searches[0].graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).isEqualTo(NodeState.TRUE);
    assertThat(searches[1].graph().find("cpu_bound", Focus.of(JAVA_UTIL))).as("tested when nothing says it ran nothing")
        .isNotNull();
  }

  @Test
  void codeNoSlowReadOrWriteWentThroughIsNotRefinedIntoForIoWait() {
    Search[] searches = withAndWithoutEvidence("io", 40, SearchTest::blockedInAcme,
        (c, n) -> new ResourceChild(c.parent(), c.child(), c.relation(), ResourceChild.UNKNOWN, n));

    assertThat(searches[0].graph().find("io_wait", Focus.of(ACME)).state()).isEqualTo(NodeState.TRUE);
    assertThat(searches[0].graph().find("io_wait", Focus.of(JAVA_UTIL))).as("no slow I/O in java.util").isNull();
    assertThat(searches[1].graph().find("io_wait", Focus.of(JAVA_UTIL))).as("tested when nothing was recorded").isNotNull();
  }

  @Test
  void codeThatStartsWaitingOnIoLaterIsRuledInWhenItsPathIsListedAgain() {
    TreeOracle tree = PlantedPrograms.oracle();
    long[] clock = {0};
    // com.acme had done no I/O when the whole program's children were first listed; it does from 15 s on
    ResourceOracle recorded = path -> tree.children(path).stream().map(c -> new ResourceChild(c.parent(), c.child(),
        c.relation(), ResourceChild.UNKNOWN, c.child().equals(ACME) && clock[0] < 15_000 ? 0 : 9)).toList();
    ScriptedEngineDriver driver = new ScriptedEngineDriver(r -> r.focus().get(Hierarchy.THREADS).isRoot()
        ? blockedInAcme(r) : 0.01, PlantedPrograms::cost);
    long start = driver.now();
    Search search = Search.create(SearchOptions.of("later-io").with("search.max_time_seconds", "60"), driver, recorded,
        driver).begin();
    for (int ticks = 0; !search.isFinished() && ticks < 70; ticks++) {
      clock[0] = driver.now() - start;
      driver.tick(search);
    }

    assertThat(search.graph().find("io_wait", Focus.of(ACME)).state()).isEqualTo(NodeState.TRUE);
  }

  @Test
  void codeTheJitDidNotCompileIsNotRefinedIntoForJitCompileTime() {
    Search[] searches = withAndWithoutEvidence("jit", 60, SearchTest::compilingAcme, (c, n) -> new ResourceChild(
        c.parent(), c.child(), c.relation(), ResourceChild.UNKNOWN, ResourceChild.UNKNOWN, n));

    assertThat(searches[0].graph().find("jit_compile_time", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.TRUE);
    assertThat(searches[0].graph().find("jit_compile_time", Focus.of(ACME)).state()).isEqualTo(NodeState.TRUE);
    assertThat(searches[0].graph().find("jit_compile_time", Focus.of(JAVA_UTIL))).as("nothing compiled in java.util")
        .isNull();
    assertThat(searches[1].graph().find("jit_compile_time", Focus.of(JAVA_UTIL))).as("tested when nothing was recorded")
        .isNotNull();
  }

  @Test
  void classLoadingGoesByTheClassesDefinedNotByTheExecutionSamples() {
    // a thread defining classes is in the VM, unseen by execution samples: com.acme was never sampled, yet its
    // loader defined every class; java.util's code was sampled and defined none
    Search[] searches = withAndWithoutEvidence("load", 60, SearchTest::loadingInAcme, (c, n) -> new ResourceChild(
        c.parent(), c.child(), c.relation(), 9 - n, ResourceChild.UNKNOWN, ResourceChild.UNKNOWN,
        ResourceChild.UNKNOWN, n));

    assertThat(searches[0].graph().find("class_load_time", Focus.of(ACME)).state()).isEqualTo(NodeState.TRUE);
    assertThat(searches[0].graph().find("class_load_time", Focus.of(JAVA_UTIL))).as("no class defined by java.util")
        .isNull();
    assertThat(searches[1].graph().find("class_load_time", Focus.of(JAVA_UTIL))).as("tested when nothing was recorded")
        .isNotNull();
  }

  /** A loader in com.acme defines classes all the time: class loading high in the whole program and in com.acme. */
  private static double loadingInAcme(MetricRequest r) {
    if (!r.metric().equals("class_load_by_loader")) {
      return PlantedPrograms.cpuHot(r);
    }
    ResourcePath code = r.focus().get(Hierarchy.CODE);
    return code.isRoot() || code.equals(ACME) ? 0.4 : 0.0;
  }

  @Test
  void codeNoContendedWaitWentThroughIsNotRefinedIntoForSyncWait() {
    Search[] searches = withAndWithoutEvidence("sync", 40, SearchTest::contendedInAcme, (c, n) -> new ResourceChild(
        c.parent(), c.child(), c.relation(), ResourceChild.UNKNOWN, ResourceChild.UNKNOWN, ResourceChild.UNKNOWN, n));

    assertThat(searches[0].graph().find("sync_wait", Focus.of(ACME)).state()).isEqualTo(NodeState.TRUE);
    assertThat(searches[0].graph().find("sync_wait", Focus.of(JAVA_UTIL))).as("no contended wait in java.util").isNull();
    assertThat(searches[1].graph().find("sync_wait", Focus.of(JAVA_UTIL))).as("tested when nothing was recorded")
        .isNotNull();
  }

  @Test
  void codeWithTooFewOfTheRecordedEventsToPassTheThresholdIsNotRefinedInto() {
    TreeOracle tree = PlantedPrograms.oracle();
    // the JIT compiled 400 methods of com.acme and 3 of every other package
    ResourceOracle recorded = path -> tree.children(path).stream().map(c -> new ResourceChild(c.parent(), c.child(),
        c.relation(), ResourceChild.UNKNOWN, ResourceChild.UNKNOWN, c.child().equals(ACME) ? 400L : 3L)).toList();
    ScriptedEngineDriver driver = new ScriptedEngineDriver(SearchTest::compilingAcme, PlantedPrograms::cost);
    Search search = Search.create(SearchOptions.of("few").with("search.max_time_seconds", "60"), driver, recorded, driver)
        .begin();

    driver.runToEnd(search, 70);

    assertThat(search.graph().find("jit_compile_time", Focus.of(ACME)).state()).isEqualTo(NodeState.TRUE);
    assertThat(search.graph().find("jit_compile_time", Focus.of(JAVA_UTIL)))
        .as("3 of 403 compilations: at most (3 + 2√3 + 2) / 403 of the whole program's 0.3, below the 0.05 threshold")
        .isNull();
  }

  @Test
  void anAllocatingPackageIsAskedOnlyAboutTheTypesThatHoldAThresholdsWorthOfItsBytes() {
    // com.acme allocates: byte[] (600 of JFR's allocation samples, 60 MB) and Long (300, 30 MB) in it, and 30 other
    // types a few samples each (3, 10 KB), as every program allocates a little of everything
    ResourceTree tree = PlantedPrograms.tree();
    tree.put(Resource.of(BYTES, "type"));
    tree.put(Resource.of(LONGS, "type"));
    for (int i = 0; i < 30; i++) {
      tree.put(Resource.of(Hierarchy.MEMORY.root().child("com.acme.Small" + i), "type"));
    }
    TreeOracle plain = PlantedPrograms.oracle(tree);
    ResourceOracle recorded = path -> plain.children(path).stream().map(c -> {
      if (c.hierarchy() != Hierarchy.MEMORY) {
        return c;
      }
      long samples = c.child().equals(BYTES) ? 600 : c.child().equals(LONGS) ? 300 : 3;
      long bytes = c.child().equals(BYTES) ? 60_000_000 : c.child().equals(LONGS) ? 30_000_000 : 10_000;
      return new ResourceChild(c.parent(), c.child(), c.relation(), ResourceChild.UNKNOWN, ResourceChild.UNKNOWN,
          ResourceChild.UNKNOWN, ResourceChild.UNKNOWN, ResourceChild.UNKNOWN, samples, bytes);
    }).toList();
    SearchOptions options = SearchOptions.of("alloc").with("search.max_time_seconds", "60");
    ScriptedEngineDriver driver = new ScriptedEngineDriver(SearchTest::allocatingInAcme, PlantedPrograms::cost);
    Search pruned = Search.create(options, driver, recorded, driver).begin();
    driver.runToEnd(pruned, 70);
    ScriptedEngineDriver again = new ScriptedEngineDriver(SearchTest::allocatingInAcme, PlantedPrograms::cost);
    Search unpruned = Search.create(options, again, plain, again).begin();
    again.runToEnd(unpruned, 70);

    ResourcePath small = Hierarchy.MEMORY.root().child("com.acme.Small7");
    String h = "object_creation_overhead";
    assertThat(pruned.graph().find(h, Focus.of(ACME)).state()).isEqualTo(NodeState.TRUE);
    assertThat(pruned.graph().find(h, Focus.of(ACME, BYTES)).state()).isEqualTo(NodeState.TRUE);
    assertThat(pruned.graph().find(h, Focus.of(BYTES)).state()).isEqualTo(NodeState.TRUE);
    assertThat(pruned.graph().find(h, Focus.of(ACME, LONGS))).as("Long: at most 37% of the whole program's 0.4")
        .isNotNull();
    assertThat(pruned.graph().find(h, Focus.of(small))).as("3 samples of 990: at most 0.2% of the bytes").isNull();
    assertThat(pruned.graph().find(h, Focus.of(ACME, small)))
        .as("com.acme's allocations of a type are at most all of that type's").isNull();
    assertThat(unpruned.graph().find(h, Focus.of(ACME, small))).as("asked when nothing was recorded").isNotNull();
  }

  private static final ResourcePath BYTES = Hierarchy.MEMORY.root().child("byte[]");
  private static final ResourcePath LONGS = Hierarchy.MEMORY.root().child("java.lang.Long");

  /** CPU-hot com.acme that allocates byte[] and Long: object creation high in com.acme, a little in other types. */
  private static double allocatingInAcme(MetricRequest r) {
    if (!r.metric().equals("object_creation_sampled")) {
      return PlantedPrograms.cpuHot(r);
    }
    ResourcePath code = r.focus().get(Hierarchy.CODE);
    if (!code.isRoot() && !code.equals(ACME)) {
      return 0.001;
    }
    ResourcePath type = r.focus().get(Hierarchy.MEMORY);
    return type.isRoot() ? 0.4 : type.equals(BYTES) ? 0.26 : type.equals(LONGS) ? 0.13 : 0.0005;
  }

  private static final ResourcePath ACME = PlantedPrograms.SPIN.parent().parent();
  private static final ResourcePath JAVA_UTIL = PlantedPrograms.SORT.parent().parent();

  /**
   * The planted program searched twice for {@code seconds}: first with each listed child carrying the evidence
   * {@code recorded} makes of a count (0 for java.util, where nothing happened; 9 elsewhere), then with the
   * plain tree, where nothing was recorded.
   */
  private static Search[] withAndWithoutEvidence(String name, int seconds, ToDoubleFunction<MetricRequest> program,
      BiFunction<ResourceChild, Long, ResourceChild> recorded) {
    TreeOracle tree = PlantedPrograms.oracle();
    ResourceOracle withEvidence = path -> tree.children(path).stream()
        .map(c -> recorded.apply(c, c.child().equals(JAVA_UTIL) ? 0L : 9L)).toList();
    SearchOptions options = SearchOptions.of(name).with("search.max_time_seconds", Integer.toString(seconds));
    ScriptedEngineDriver driver = new ScriptedEngineDriver(program, PlantedPrograms::cost);
    Search pruned = Search.create(options, driver, withEvidence, driver).begin();
    driver.runToEnd(pruned, seconds + 10);
    ScriptedEngineDriver plain = new ScriptedEngineDriver(program, PlantedPrograms::cost);
    Search unpruned = search(plain, options).begin();
    plain.runToEnd(unpruned, seconds + 10);
    return new Search[] {pruned, unpruned};
  }

  /** Threads queue on a lock in com.acme: sync_wait high in the whole program and in com.acme, low elsewhere. */
  private static double contendedInAcme(MetricRequest r) {
    if (!r.metric().startsWith("sync_wait")) {
      return 0.01;
    }
    ResourcePath code = r.focus().get(Hierarchy.CODE);
    return code.isRoot() || code.equals(PlantedPrograms.SPIN.parent().parent()) ? 0.5 : 0.01;
  }

  /** CPU-hot com.acme whose code the JIT keeps compiling: jit_compile_time high in the whole program and there. */
  private static double compilingAcme(MetricRequest r) {
    if (!r.metric().equals("jit_compile_time")) {
      return PlantedPrograms.cpuHot(r);
    }
    ResourcePath code = r.focus().get(Hierarchy.CODE);
    return code.isRoot() || code.equals(PlantedPrograms.SPIN.parent().parent()) ? 0.3 : 0.0;
  }

  @Test
  void theProgramsOwnCodeComesBeforeThePlatformsAtTheSameLevel() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = search(driver, SearchOptions.of("own-first")).begin();

    driver.runToEnd(search, 60);

    double acme = search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN.parent().parent())).priority();
    double javaUtil = search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SORT.parent().parent())).priority();
    // where 10 minus 0.01 for a package; the platform's code gets priority.platform_code (1) more
    assertThat(acme).isCloseTo(9.99, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(javaUtil).isCloseTo(10.99, org.assertj.core.api.Assertions.within(1e-9));
  }

  /** A thread blocked in reads: I/O time high in the whole program and in com.acme, low elsewhere. */
  private static double blockedInAcme(MetricRequest r) {
    if (!r.metric().equals("io_time") && !r.metric().equals("io_wait")) {
      return r.metric().equals("io_bytes") ? 65536 : 0.01;
    }
    ResourcePath code = r.focus().get(Hierarchy.CODE);
    return code.isRoot() || code.equals(PlantedPrograms.SPIN.parent().parent()) ? 0.6 : 0.01;
  }

  @Test
  void onAMostlyAsleepProgramNoTopLevelHypothesisIsTrue() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost);
    Search search = search(driver, SearchOptions.of("asleep").with("search.watch_until_found", "0")).begin();

    int ticks = driver.runToEnd(search, 60);

    assertThat(search.endReason()).isEqualTo("converged: nothing left to test");
    assertThat(ticks).isLessThanOrEqualTo(8);
    assertThat(search.graph().nodes()).noneMatch(n -> n.state() == NodeState.TRUE);
    assertThat(search.graph().find("top", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.FALSE);
    assertThat(search.graph().nodes()).hasSize(5);
    assertThat(driver.live()).isEmpty();
  }

  @Test
  void aSearchThatFoundNothingWatchesAgainAndFindsACauseThatComesLater() {
    long[] clock = new long[1];
    ScriptedEngineDriver driver = new ScriptedEngineDriver(
        r -> clock[0] < 30_000 ? PlantedPrograms.mostlyAsleep(r) : PlantedPrograms.cpuHot(r), PlantedPrograms::cost);
    long start = driver.now();
    Search search = search(driver, SearchOptions.of("phases").with("search.max_time_seconds", "120")).begin();

    int ticks = 0;
    while (!search.isFinished() && ticks++ < 130) {
      clock[0] = driver.now() - start;
      driver.tick(search);
    }

    SearchHistoryGraph g = search.graph();
    assertThat(g.find("cpu_bound", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.TRUE);
    assertThat(g.find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).as("located once it came").isEqualTo(NodeState.TRUE);
    assertThat(search.endReason()).as("it converged once something was true").isEqualTo("converged: nothing left to test");
    assertThat(driver.live()).isEmpty();
  }

  /** CPU-bound in SPIN for the first {@code hotUntil} ms, then asleep, then CPU-bound again from 30 s. */
  private static Search movingOn(long hotUntil, String watch) {
    long[] clock = {0};
    ScriptedEngineDriver driver = new ScriptedEngineDriver(r -> clock[0] < hotUntil || clock[0] >= 30_000
        ? PlantedPrograms.cpuHot(r) : PlantedPrograms.mostlyAsleep(r), PlantedPrograms::cost);
    long start = driver.now();
    Search search = search(driver, SearchOptions.of("moving-" + watch).with("search.max_time_seconds", "90")
        .with("search.watch_until_found", watch)).begin();
    for (int ticks = 0; !search.isFinished() && ticks < 100; ticks++) {
      clock[0] = driver.now() - start;
      driver.tick(search);
    }
    assertThat(driver.live()).isEmpty();
    return search;
  }

  @Test
  void aCauseThatMovedOnBeforeItsPlaceWasTestedIsLocatedWhenItComesBack() {
    Search watching = movingOn(5_000, "1");
    Search not = movingOn(5_000, "0");

    assertThat(not.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.TRUE);
    assertThat(not.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN))).as("the phase had ended")
        .satisfiesAnyOf(n -> assertThat(n).isNull(), n -> assertThat(n.state()).isNotEqualTo(NodeState.TRUE));
    assertThat(watching.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).as("located when it came back")
        .isEqualTo(NodeState.TRUE);
    assertThat(watching.endReason()).isEqualTo("converged: nothing left to test");
  }

  @Test
  void aCauseThatMovedOnWhileItsPackageWasFoundIsLocatedWhenItComesBack() {
    Search watching = movingOn(PACKAGE_PHASE_MILLIS, "1");
    Search not = movingOn(PACKAGE_PHASE_MILLIS, "0");

    ResourcePath acme = PlantedPrograms.SPIN.parent().parent();
    assertThat(not.graph().find("cpu_bound", Focus.of(acme)).state()).as("the package was found").isEqualTo(NodeState.TRUE);
    assertThat(not.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN))).as("the phase ended before its method was tested")
        .satisfiesAnyOf(n -> assertThat(n).isNull(), n -> assertThat(n.state()).isNotEqualTo(NodeState.TRUE));
    assertThat(not.endReason()).isEqualTo("converged: nothing left to test");
    assertThat(watching.graph().find("cpu_bound", Focus.of(PlantedPrograms.SPIN)).state()).as("located when it came back")
        .isEqualTo(NodeState.TRUE);
  }

  @Test
  void aSearchWhoseOtherNodesWaitForBudgetWatchesTheCodeBelowItsPackageAgain() {
    long[] clock = {0};
    long[] locatedAt = {-1};
    ScriptedEngineDriver driver = new ScriptedEngineDriver(r -> clock[0] < PACKAGE_PHASE_MILLIS || clock[0] >= 30_000
        ? PlantedPrograms.cpuHot(r) : PlantedPrograms.mostlyAsleep(r),
        r -> r.metric().equals("method_call_overhead") ? EXPENSIVE : PlantedPrograms.cost(r));
    long start = driver.now();
    Search search = search(driver, SearchOptions.of("stalled").with("search.max_time_seconds", "60"));
    search.addListener(e -> {
      if (e instanceof ShgEvent.NodeChanged c && c.node().state() == NodeState.TRUE && locatedAt[0] < 0
          && c.node().focus().equals(Focus.of(PlantedPrograms.SPIN))) {
        locatedAt[0] = clock[0];
      }
    });
    search.begin();
    for (int ticks = 0; !search.isFinished() && ticks < 70; ticks++) {
      clock[0] = driver.now() - start;
      driver.tick(search);
    }

    assertThat(locatedAt[0]).as("located within %d ms of the phase's return, while method_call_overhead waits for"
        + " budget", LOCATED_WITHIN_MILLIS).isBetween(30_000L, 30_000L + LOCATED_WITHIN_MILLIS);
    assertThat(driver.live()).isEmpty();
  }

  @Test
  void aWaitingNodesFiguresAreWrittenAgainEveryFewSecondsNotAtEveryStep() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot,
        r -> r.metric().equals("method_call_overhead") ? EXPENSIVE : PlantedPrograms.cost(r));
    Search search = search(driver, SearchOptions.of("saving").with("search.max_time_seconds", "60"));
    java.util.Map<Integer, List<ShgNode>> reworded = new java.util.HashMap<>();
    search.addListener(e -> {
      if (e instanceof ShgEvent.NodeChanged c && c.node().reason() != null
          && c.node().reason().startsWith("measured in bursts")) {
        reworded.computeIfAbsent(c.node().id(), k -> new ArrayList<>()).add(c.node());
      }
    });
    search.begin();
    driver.runToEnd(search, 40);

    assertThat(reworded).as("a node waits for its burst, its figures moving as the budget saves up").isNotEmpty();
    reworded.values().forEach(changes -> assertThat(changes)
        .as("written again every 5 s at most, not at each of 40 steps of 1 s").hasSizeLessThanOrEqualTo(40 / 5 + 2));
  }

  /**
   * A node whose burst needs more budget than the search saves up in about 30 s: it waits most of the search, and
   * its burst overspends what was saved, so everything else waits about 15 s after it.
   */
  private static final double EXPENSIVE = 0.3;
  /** Before the time limit: the class is tested again after the burst's overspending is repaid. */
  private static final long LOCATED_WITHIN_MILLIS = 30_000;

  /** Long enough for the package to be found CPU-bound, not for its classes to be tested. */
  private static final long PACKAGE_PHASE_MILLIS = 7_000;

  @Test
  void aPlatformMethodAloneDoesNotLocateTheCauseSoTheSearchKeepsWatching() {
    // the JDK's sort is hot, called from the program's main: the program's own code is where to act
    ToDoubleFunction<MetricRequest> sortHot = r -> {
      if (!r.metric().equals("cpu_inclusive")) {
        return 0.01;
      }
      ResourcePath code = r.focus().get(Hierarchy.CODE);
      return code.isRoot() || code.contains(PlantedPrograms.SORT) ? 0.9 : 0.01;
    };
    ScriptedEngineDriver watching = new ScriptedEngineDriver(sortHot, PlantedPrograms::cost);
    Search search = search(watching, SearchOptions.of("platform").with("search.max_time_seconds", "40"));
    search.begin();
    watching.runToEnd(search, 60);

    assertThat(search.graph().find("cpu_bound", Focus.of(PlantedPrograms.SORT)).state()).isEqualTo(NodeState.TRUE);
    assertThat(search.endReason()).as("not converged on the platform's method alone").isEqualTo("time limit");
  }

  @Test
  void aSearchThatNeverFindsAnythingWatchesUntilItsTimeLimit() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost);
    List<ShgEvent> events = new ArrayList<>();
    Search search = search(driver, SearchOptions.of("asleep").with("search.max_time_seconds", "40"));
    search.addListener(events::add);
    search.begin();

    driver.runToEnd(search, 60);

    assertThat(search.endReason()).isEqualTo("time limit");
    assertThat(search.graph().nodes()).noneMatch(n -> n.state() == NodeState.TRUE);
    assertThat(events).as("cpu_bound found false, then queued again").anySatisfy(e -> {
      assertThat(e).isInstanceOf(ShgEvent.NodeChanged.class);
      ShgNode n = ((ShgEvent.NodeChanged) e).node();
      assertThat(n.hypothesis()).isEqualTo("cpu_bound");
      assertThat(n.reason()).startsWith("queued again: nothing was located yet");
    });
    assertThat(search.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state()).as("false at the end, as it was found")
        .isEqualTo(NodeState.FALSE);
    assertThat(search.graph().nodes()).noneMatch(n -> n.state() == NodeState.STOPPED);
    assertThat(driver.live()).isEmpty();
  }

  @Test
  void anUnavailableMetricMakesAnHonestUnknownAndTheRestGoesOn() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost)
        .failing("gc_time", new MeasurementFailure(MeasurementFailure.Kind.METRIC_UNAVAILABLE, "JFR is not available"));
    Search search = search(driver, SearchOptions.of("no-gc").with("search.watch_until_found", "0")).begin();

    driver.runToEnd(search, 60);

    ShgNode gc = search.graph().find("memory_pressure", Focus.WHOLE_PROGRAM);
    assertThat(gc.state()).isEqualTo(NodeState.UNKNOWN);
    assertThat(gc.reason()).contains("gc_time").contains("JFR is not available");
    assertThat(search.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.FALSE);
    assertThat(search.graph().find("top", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.UNKNOWN);
  }

  @Test
  void theTimeLimitEndsTheSearchAndStopsWhatIsOpen() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = search(driver, SearchOptions.of("short").withMaxTime(java.time.Duration.ofSeconds(10))).begin();

    assertThat(driver.runToEnd(search, 60)).isEqualTo(10);

    assertThat(search.endReason()).isEqualTo("time limit");
    assertThat(search.graph().nodes()).noneMatch(n -> n.state() == NodeState.TESTING || n.state() == NodeState.UNTESTED);
    assertThat(search.graph().nodes()).anyMatch(n -> n.state() == NodeState.STOPPED && n.reason().equals("search ended: time limit"));
    assertThat(driver.live()).isEmpty();
  }

  @Test
  void stopEndsTheSearchAtTheNextStep() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::cpuHot, PlantedPrograms::cost);
    Search search = search(driver, SearchOptions.of("stopped")).begin();
    driver.tick(search);

    search.stop("stopped by the user");
    driver.tick(search);

    assertThat(search.endReason()).isEqualTo("stopped by the user");
    assertThat(driver.live()).isEmpty();
  }

  @Test
  void aFocusTheTargetDoesNotHaveIsPrunedWithTheReason() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost)
        .failing("io_time", new MeasurementFailure(MeasurementFailure.Kind.FOCUS_UNKNOWN, "no /IO hierarchy on this platform"));
    Search search = search(driver, SearchOptions.of("no-io")).begin();

    driver.runToEnd(search, 60);

    ShgNode io = search.graph().find("io_wait", Focus.WHOLE_PROGRAM);
    assertThat(io.state()).isEqualTo(NodeState.STOPPED);
    assertThat(io.reason()).isEqualTo("pruned: (io_time, <>): no /IO hierarchy on this platform");
    assertThat(search.graph().find("top", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.UNKNOWN);
  }

  @Test
  void nodesWaitForTheirCostPredictionWithoutMeasuring() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost);
    driver.pendingUntil(driver.now() + 3000);
    Search search = search(driver, SearchOptions.of("pending").with("search.watch_until_found", "0")).begin();
    driver.tick(search);
    driver.tick(search);

    assertThat(driver.requested()).isEmpty();
    assertThat(search.graph().nodes()).filteredOn(n -> !n.hypothesis().equals("top")).allMatch(n -> n.state() == NodeState.UNTESTED);

    driver.runToEnd(search, 60);
    assertThat(search.endReason()).isEqualTo("converged: nothing left to test");
    assertThat(search.graph().find("cpu_bound", Focus.WHOLE_PROGRAM).state()).isEqualTo(NodeState.FALSE);
  }

  @Test
  void everyEventHasAJsonFormForTheEventBus() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost);
    List<ShgEvent> events = new ArrayList<>();
    Search search = search(driver, SearchOptions.of("events").with("search.watch_until_found", "0"));
    search.addListener(events::add);
    search.begin();
    driver.runToEnd(search, 60);

    assertThat(events.get(0).toJson()).containsEntry("type", "nodeAdded").containsEntry("searchId", "events");
    assertThat(events.get(0).toJson()).extractingByKey("node").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsEntry("id", 0).containsEntry("hypothesis", "top").containsEntry("state", "untested").containsEntry("focus", List.of());
    assertThat(events).filteredOn(e -> e instanceof ShgEvent.EdgeAdded).first()
        .extracting(e -> e.toJson().get("edge")).isEqualTo(search.graph().edges().get(0).toJson());
    assertThat(events.get(events.size() - 1).toJson())
        .isEqualTo(java.util.Map.of("type", "searchEnded", "searchId", "events", "reason", "converged: nothing left to test"));
    assertThat(events).allSatisfy(e -> assertThat(dev.bottlenose.model.json.Json.write(e.toJson())).startsWith("{\"type\":"));
  }

  @Test
  void aPredictionThatFailsAfterWaitingEndsUnknownAndTheSearchStillConverges() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost)
        .failingPrediction("gc_time", new MeasurementFailure(MeasurementFailure.Kind.METRIC_UNAVAILABLE, "no GC events"));
    driver.pendingUntil(driver.now() + 2000);
    Search search = search(driver, SearchOptions.of("late-failure").with("search.watch_until_found", "0")).begin();

    driver.runToEnd(search, 60);

    assertThat(search.endReason()).isEqualTo("converged: nothing left to test");
    assertThat(search.graph().find("memory_pressure", Focus.WHOLE_PROGRAM).reason()).isEqualTo("(gc_time, <>): no GC events");
    assertThat(driver.requested()).extracting(MetricRequest::metric).doesNotContain("gc_time");
  }

  @Test
  void aSearchBeginsOnceAndAdvancesOnlyAfterItBegan() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost);
    Search search = search(driver, SearchOptions.of("twice"));

    org.assertj.core.api.Assertions.assertThatThrownBy(search::advance).hasMessage("search twice has not begun; call begin() first");
    search.begin();
    org.assertj.core.api.Assertions.assertThatThrownBy(search::begin).hasMessage("search twice has begun already");
  }

  @Test
  void aPortThatThrowsMakesTheNodeUnknownInsteadOfBreakingTheSearch() {
    ScriptedEngineDriver driver = new ScriptedEngineDriver(PlantedPrograms::mostlyAsleep, PlantedPrograms::cost).throwingOn("sync_wait_sampled");
    Search search = search(driver, SearchOptions.of("throws").with("search.watch_until_found", "0")).begin();

    driver.runToEnd(search, 60);

    ShgNode sync = search.graph().find("sync_wait", Focus.WHOLE_PROGRAM);
    assertThat(sync.state()).isEqualTo(NodeState.UNKNOWN);
    assertThat(sync.reason()).isEqualTo("(sync_wait_sampled, <>): the request failed: event bus closed");
    assertThat(search.endReason()).isEqualTo("converged: nothing left to test");
  }
}
