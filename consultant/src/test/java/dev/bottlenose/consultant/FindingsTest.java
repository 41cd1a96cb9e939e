package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.Findings.Finding;
import dev.bottlenose.metrics.Numbers;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Findings made from searches saved by the diagnosis benchmark at a 1% budget (their value series left out):
 * programs with known causes, searched before verdicts had to be decisive, so some hold nodes made true inside
 * the hysteresis band.
 */
class FindingsTest {
  static final List<String> SAVED = List.of("alloc-churn", "class-loading", "gc-pressure", "h2-orders", "hot-loop", "huge-method",
      "http-server-recursion", "idle", "javac", "megamorphic", "lock-across-sleep", "phases", "small-reads", "two-causes");

  static SavedSearch saved(String name) {
    try (InputStream in = FindingsTest.class.getResourceAsStream("findings/" + name + ".json")) {
      return SavedSearch.fromJson(Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void classLoadingAtALoaderSaysTheClassesAreChargedToTheLoaderThatDefinesThem() {
    Hypothesis loading = HypothesisCatalog.of(Settings.defaults()).get("class_load_time");
    String atLoader = Findings.NextSteps.of(loading,
        dev.bottlenose.model.Focus.of(dev.bottlenose.model.ResourcePath.parse("/Code/com.acme/PluginHost$OneClass")));

    assertThat(atLoader).startsWith("classes are defined while the program runs, charged to class com.acme.PluginHost$OneClass"
        + " (the class loader that defines them").contains("a class loader made per request");
    assertThat(Findings.NextSteps.of(loading, dev.bottlenose.model.Focus.WHOLE_PROGRAM))
        .startsWith("classes are defined while the program runs: cache");
  }

  @Test
  void twoPlantedCausesAreTwoFindingsRankedByTheTimeTheyCost() {
    List<Finding> found = Findings.of(saved("two-causes"));

    assertThat(found).extracting(Finding::hypothesis).containsExactly("sync_wait", "cpu_bound");
    assertThat(found).extracting(Finding::rank).containsExactly(1, 2);
    Finding lock = found.get(0);
    assertThat(lock.threads()).containsExactly("quote-0", "quote-1", "quote-2");
    assertThat(lock.where()).contains("locks of java.util.concurrent.locks.ReentrantLock$NonfairSync");
    assertThat(lock.programCode().subList(0, 2)).as("the program's own methods before a lambda's generated ones")
        .containsExactlyInAnyOrder("diag.twocauses.PriceService.quote()", "diag.twocauses.PriceService.quoting()");
    assertThat(lock.impact().secondsPerSecond()).isBetween(2.0, 2.1);
    assertThat(lock.impact().text()).isEqualTo("3 threads spend 68% of their time blocked waiting for a lock on average (2.04 s per second in all)");
    assertThat(lock.nodeIds()).as("the thread-only and code-only leaves fold into it").contains(46, 107, 90, 118, 119, 120);
    Finding cpu = found.get(1);
    assertThat(cpu.where()).isEqualTo("diag.twocauses.PriceService.price(double, double, double, int)");
    assertThat(cpu.impact().text()).as("a single thread's measured share past 100% reads as all of it")
        .isEqualTo("thread pricing spends all of its time on the CPU");
    assertThat(cpu.impact().secondsPerSecond()).isLessThan(lock.impact().secondsPerSecond());
    for (Finding f : found) {
      assertThat(f.nextStep()).isNotBlank();
      assertThat(f.evidence().text()).startsWith(f.evidence().metric() + " ");
      assertThat(f.foundAfterSeconds()).isPositive();
    }
    assertThat(Findings.text(found)).contains("1. Lock contention - 3 threads", "2. CPU-bound - thread pricing", "next: ");
    assertThat(lock.evidence().text()).as("the value in its unit").isEqualTo("sync_wait 0.7393 s per second > 0.21"
        + " (threshold 0.2 + 5% hysteresis); 0.7393 passes threshold 0.2000 clearly in 3.4 s");
    assertThat(cpu.evidence().text()).startsWith("cpu_inclusive 1.042 s per second > 0.315 (threshold 0.3 + 5% hysteresis)");
    assertThat(lock.measuringCost()).isCloseTo(0.000363, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(lock.text()).contains("\n   evidence: sync_wait 0.7393 s per second > 0.21 (threshold 0.2 + 5% hysteresis);")
        .contains("; found 33.8 s into the search; measuring it cost 0.04% of the target's CPU\n");
    assertThat(cpu.measuringCost()).as("execution samples: nothing more to pay").isZero();
    assertThat(cpu.text()).contains("; found 17.2 s into the search; measuring it cost under 0.01% of the target's CPU\n");
  }

  /**
   * Each finding's flame graph is its hypothesis's graph (a refinement's its nearest ancestor's that has one),
   * through its place's code, or the whole graph when its place names no code.
   */
  @Test
  void eachFindingsFlameGraphFollowsItsHypothesisThroughItsCode() {
    List<Finding> twoCauses = Findings.of(saved("two-causes"));
    assertThat(twoCauses.get(0).flame()).isEqualTo(new Findings.Flame("sync",
        dev.bottlenose.model.ResourcePath.parse("/Code/jdk.internal.misc/Unsafe/park(ZJ)V"),
        "lock-wait samples through jdk.internal.misc.Unsafe.park(boolean, long)"));
    assertThat(twoCauses.get(1).flame().text())
        .isEqualTo("CPU samples through diag.twocauses.PriceService.price(double, double, double, int)");
    assertThat(twoCauses.get(1).toJson().get("flame")).isEqualTo(java.util.Map.of("graph", "cpu",
        "through", "/Code/diag.twocauses/PriceService/price(DDDI)D",
        "text", "CPU samples through diag.twocauses.PriceService.price(double, double, double, int)"));
    assertThat(flame("huge-method", "interpreted_time").graph()).as("a refinement of CPU-bound").isEqualTo("cpu");
    assertThat(flame("small-reads", "io_wait").graph()).isEqualTo("io");
    assertThat(flame("gc-pressure", "allocation_share").text())
        .isEqualTo("allocation samples through diag.gc.SessionCache.churn(Map, long)");
    assertThat(flame("alloc-churn", "object_creation_overhead").graph()).isEqualTo("alloc");
    assertThat(flame("h2-orders", "jit_compile_time")).isEqualTo(new Findings.Flame("jit", null, "JIT compilations"));
    assertThat(flame("class-loading", "class_load_time"))
        .isEqualTo(new Findings.Flame("load", null, "class definitions"));
    assertThat(Findings.of(saved("javac"))).extracting(f -> f.flame().text()).as("a package")
        .contains("CPU samples through package java.lang");
  }

  /** The flame graph of search {@code name}'s first finding of {@code hypothesis}. */
  private static Findings.Flame flame(String name, String hypothesis) {
    return Findings.of(saved(name)).stream().filter(f -> f.hypothesis().equals(hypothesis)).findFirst().orElseThrow()
        .flame();
  }

  @Test
  void aLockFourThreadsWaitForIsOneFindingWithItsThreads() {
    List<Finding> found = Findings.of(saved("lock-across-sleep"));

    assertThat(found).hasSize(1);
    assertThat(found.get(0).where()).isEqualTo("diag.lockslow.AuditLog.append(String), monitors of diag.lockslow.AuditLog");
    assertThat(found.get(0).threads()).containsExactly("request-0", "request-1", "request-2", "request-3");
    assertThat(found.get(0).nodeIds()).as("sixteen true leaves").hasSize(16);
    assertThat(found.get(0).focus().get(Hierarchy.THREADS).isRoot()).isTrue();
  }

  @Test
  void aLockFindingOnAPoolGetsTheHoldersItsPoolsThreadsWaitedFor() {
    String json = Json.write(saved("two-causes").toJson()).replaceAll("/Threads/quote/quote-[0-9]", "/Threads/quote");
    SavedSearch s = SavedSearch.fromJson(Json.parse(json)).withHolders(List.of(
        new SavedSearch.LockHolder("d", "lock java.util.concurrent.locks.ReentrantLock$NonfairSync", "quote-4",
            "TIMED_WAITING", List.of("/Code/java.lang/Thread/sleep"), 5, 8, List.of("quote-5", "quote-6"), List.of("quote")),
        new SavedSearch.LockHolder("d", "monitor java.lang.Object", "main", "RUNNABLE", List.of(), 8, 8,
            List.of("ticker"), List.of("main"))));

    Finding lock = Findings.of(s).stream().filter(f -> f.hypothesis().equals("sync_wait")).findFirst().orElseThrow();

    assertThat(lock.threads()).containsExactly("pool quote");
    assertThat(lock.holders()).singleElement().satisfies(h -> assertThat(h.owner()).isEqualTo("quote-4"));
  }

  @Test
  void aCauseThatExplainsMostOfItsParentsTimeTakesItsPlace() {
    List<Finding> found = Findings.of(saved("huge-method"));

    assertThat(found).singleElement().satisfies(f -> {
      assertThat(f.hypothesis()).isEqualTo("interpreted_time");
      assertThat(f.where()).isEqualTo("diag.interp.RuleScorer.score(long[])");
      assertThat(f.nodeIds()).as("CPU-bound at the same method and thread folds in").contains(44);
    });
  }

  @Test
  void platformClassesUnderTheProgramsHotMethodFoldIntoItAndAHotPlatformMethodStays() {
    List<Finding> found = Findings.of(saved("phases"));

    assertThat(found).extracting(Finding::where).containsExactly("diag.phases.BatchJob.parse(String)",
        "java.lang.StringLatin1.hashCode(byte[])", "class diag.Run", "the whole program");
    assertThat(found.get(0).nodeIds()).as("java.lang.String and java.lang.Thread, the thread batch").contains(32, 34, 35);
  }

  @Test
  void aShareOfTheBytesTakesItsTimeFromTheGcPausesAboveIt() {
    SavedSearch s = saved("gc-pressure");
    Finding f = Findings.of(s).get(0);
    double gc = s.graph().find("memory_pressure", dev.bottlenose.model.Focus.WHOLE_PROGRAM).value();

    assertThat(f.hypothesis()).isEqualTo("allocation_share");
    assertThat(f.impact().secondsPerSecond()).isCloseTo(gc * f.evidence().value(), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(f.impact().text()).startsWith("49% of bytes allocated; ");
    assertThat(f.evidence().metric()).isEqualTo("alloc_sampled_bytes / the program's alloc_sampled_bytes");
    assertThat(f.evidence().text()).matches("alloc_sampled_bytes / the program's alloc_sampled_bytes 0\\.\\d+ of bytes allocated > 0\\.21 .*");
  }

  @Test
  void nodesMadeTrueInsideTheHysteresisBandAreNoFinding() {
    SavedSearch s = saved("h2-orders");
    assertThat(s.graph().find("cpu_bound", dev.bottlenose.model.Focus.parse("/Code/java.util")).state()).isEqualTo(NodeState.TRUE);

    assertThat(Findings.of(s)).extracting(f -> f.focus().toString()).doesNotContain("</Code/java.util>");
    assertThat(Findings.of(s)).extracting(Finding::hypothesis).doesNotContain("interpreted_time");
  }

  @Test
  void aRecursionTheSearchWalkedRoundIsOneFindingAtTheMethodItEnteredBy() {
    // a 1% search of the Jetty server: CPU-bound walked down Jackson's serializers, which call one another
    // recursively (a list of beans of lists), back to a method it had tested, true all the way round
    SavedSearch s = saved("http-server-recursion");
    List<Finding> found = Findings.of(s);

    assertThat(found).isNotEmpty();
    Finding first = found.get(0);
    assertThat(first.hypothesis()).isEqualTo("cpu_bound");
    assertThat(first.where()).contains("com.fasterxml.jackson.databind.ser");
    assertThat(first.nodeIds()).as("the recursion's other methods fold into it").hasSizeGreaterThanOrEqualTo(7);
    assertThat(first.nodeIds().get(0)).as("the method the search entered the recursion by")
        .isEqualTo(first.nodeIds().stream().filter(id -> s.graph().node(id).focus().get(Hierarchy.CODE).isMethod())
            .mapToInt(Integer::intValue).min().orElseThrow());
  }

  @Test
  void cpuBoundInAPlatformPackageFoldsIntoThePackageOfTheProgramWhereTheSearchStopped() {
    // a 1% search of the megamorphic-call program: CPU-bound in the program's package diag.dispatch, and in
    // java.lang, whose Thread.run is under all of it; the search got no further than the package
    List<Finding> found = Findings.of(saved("megamorphic"));

    assertThat(found).extracting(Finding::where).contains("package diag.dispatch").doesNotContain("package java.lang")
        .as("diag's time is diag.dispatch's").doesNotContain("package diag");
    Finding dispatch = found.stream().filter(f -> f.where().equals("package diag.dispatch")).findFirst().orElseThrow();
    assertThat(dispatch.nodeIds().stream().map(id -> saved("megamorphic").graph().node(id).focus().toString()))
        .as("java.lang and diag folded into it").contains("</Code/java.lang>", "</Code/diag>");
  }

  @Test
  void anIdleProgramHasNoFinding() {
    assertThat(Findings.of(saved("idle"))).isEmpty();
    assertThat(Findings.text(List.of())).isEqualTo("no finding: no hypothesis tested true\n");
  }

  static Stream<String> savedSearches() {
    return SAVED.stream();
  }

  @ParameterizedTest
  @MethodSource("savedSearches")
  void everyFindingsEvidencePassesItsBarAndReadsWithoutScientificNotation(String name) {
    SavedSearch s = saved(name);
    for (Finding f : Findings.of(s)) {
      Hypothesis h = s.hypotheses().get(f.hypothesis());
      assertThat(h.comparison().passes(f.evidence().value(), f.evidence().bar(), 1)).as(f.text()).isTrue();
      assertThat(h.comparison().passes(f.evidence().bar(), f.evidence().threshold(), 1 + (h.comparison() == Comparison.ABOVE ? 1 : -1) * h.hysteresis() * 0.999))
          .as("the bar is the threshold moved by the hysteresis: " + f.text()).isTrue();
      assertThat(f.text()).as(f.text()).doesNotContainPattern("\\d[eE][-+]?\\d").doesNotContain("NaN");
      String head = f.evidence().metric() + " " + Numbers.plain(f.evidence().value()) + " ";
      assertThat(f.evidence().text()).startsWith(head);
      assertThat(f.evidence().text().substring(head.length())).as("the value's unit follows it: " + f.evidence().text())
          .doesNotStartWith(f.evidence().comparison()).contains(" " + f.evidence().comparison() + " ");
      assertThat(f.nodeIds()).allSatisfy(id -> assertThat(s.graph().node(id).state()).isEqualTo(NodeState.TRUE));
    }
  }

  @ParameterizedTest
  @MethodSource("savedSearches")
  void theCliTreeReadsWithoutScientificNotation(String name) {
    SavedSearch s = saved(name);
    List<String> lines = s.graph().toText(s.hypotheses()).lines().toList();
    long valued = s.graph().nodes().stream().filter(n -> !Double.isNaN(n.value())).count();
    String unit = "( s per second| of bytes allocated| bytes per operation)";
    java.util.regex.Pattern plain = java.util.regex.Pattern.compile(".*>  -?\\d+(\\.\\d+)?" + unit
        + " \\(threshold -?\\d+(\\.\\d+)?\\)(  \\(see above\\))?");
    assertThat(lines.stream().filter(l -> plain.matcher(l).matches()).count())
        .as("every value and threshold in fixed-point, the value in its unit")
        .isEqualTo(lines.stream().filter(l -> l.matches(".*>  .* \\(threshold \\S+\\)(  \\(see above\\))?")).count())
        .isGreaterThanOrEqualTo(Math.min(valued, 1));
  }

  @Test
  void aValueReadsInItsHypothesisUnitAndNoneIsGuessed() {
    HypothesisCatalog c = HypothesisCatalog.of(Settings.defaults());
    assertThat(Findings.valueText(c.get("cpu_bound"), 1.7921, 0.3)).isEqualTo("1.792 s per second (threshold 0.3)");
    assertThat(Findings.valueText(c.get("allocation_share"), 0.35, 0.2)).isEqualTo("0.35 of bytes allocated (threshold 0.2)");
    assertThat(Findings.valueText(c.get("small_io_ops"), 512, 4096)).isEqualTo("512 bytes per operation (threshold 4096)");
    assertThat(Findings.valueText(null, 1.7921, 0.3)).as("a hypothesis not known").isEqualTo("1.792 (threshold 0.3)");
    assertThat(Findings.valueText(c.get("cpu_bound"), 0.5, Double.NaN)).isEqualTo("0.5 s per second");
    assertThat(Findings.unitWords(c.get(HypothesisCatalog.TOP))).as("a virtual hypothesis has no unit").isEmpty();
  }

  @Test
  void aMetricsUnitReadsInTheWordsOfAHypothesisOfTheSameUnit() {
    assertThat(Findings.metricUnitWords("fraction")).as("a time metric's seconds per second")
        .isEqualTo(Findings.unitWords(HypothesisCatalog.of(Settings.defaults()).get("cpu_bound"))).isEqualTo("s per second");
    assertThat(Findings.metricUnitWords("count/s")).isEqualTo("per second");
    assertThat(Findings.metricUnitWords("bytes/s")).isEqualTo("bytes per second");
    assertThat(Findings.metricUnitWords("bytes/count")).isEqualTo("bytes each");
    assertThat(Findings.metricUnitWords("ratio")).isEqualTo("ratio");
    assertThat(Findings.metricUnitWords(null)).isEmpty();
  }

  @Test
  void aTinyValueInTheCliTreeReadsInFixedPoint() {
    SavedSearch s = saved("huge-method");
    String tree = s.graph().toText(s.hypotheses());
    assertThat(tree.lines().filter(l -> l.contains("object_creation_overhead")))
        .as("1.92e-08, once printed 1.923e-08").anyMatch(l -> l.endsWith("  0.00000001923 s per second (threshold 0.1)"));
  }

  @Test
  void savedJsonCarriesTheFindingsAndReadsBack() {
    SavedSearch s = saved("two-causes");
    Object json = Json.parse(Json.write(s.toJson()));
    List<?> findings = (List<?>) ((java.util.Map<?, ?>) json).get("findings");

    assertThat(findings).hasSize(2);
    assertThat(((java.util.Map<?, ?>) findings.get(0)).get("why")).isEqualTo("Lock contention");
    assertThat(Findings.of(SavedSearch.fromJson(json))).hasSize(2);
  }
}
