package dev.bottlenose.tests.bench;

import java.util.List;

/**
 * The programs of the diagnosis benchmark and their known answers. Each program plants a cause (or two,
 * or none) that a person would name; the answer is what a search should find: which hypothesis (the why)
 * at a focus containing which resource (the where). Half the planted programs are marked {@link Part#HELD_OUT}:
 * they are run and reported, but nothing (a threshold, a rule, a cost constant) is chosen by looking at them.
 * The {@link Part#REAL} programs are software nobody wrote for the benchmark (javac, H2, Lucene, and Jetty
 * serving JSON rendered by Jackson), driven by a few lines in {@code diag.real}; their answers are what JFR's
 * execution samples of the same run show, and they are held out too.
 */
final class DiagnosisSuite {
  private DiagnosisSuite() {}

  enum Part {
    TUNING("tuning", "Tuning half"),
    HELD_OUT("held out", "Held-out half"),
    REAL("real, held out", "Real programs (held out)");

    final String label;
    final String heading;

    Part(String label, String heading) {
      this.label = label;
      this.heading = heading;
    }
  }

  /**
   * One right answer: a true node of one of {@code why}'s hypotheses whose focus has a path containing
   * {@code where} (a path prefix such as {@code /Code/diag.hotloop/ImageFilter/blur}, or a word of a
   * SyncObjects or IO path).
   */
  record Answer(List<String> why, String where) {
    static Answer of(String where, String... why) {
      return new Answer(List.of(why), where);
    }
  }

  /**
   * A program: its main class (on the test class path) or a command, its JVM options, its part, and its
   * answers; {@code all}: every answer must be found (two causes), else any one of them (phases, or a cause
   * that two hypotheses describe equally well). No answers: nothing may be found true (an idle program).
   */
  record Program(String id, String mainClass, List<String> jvmOptions, Part part, boolean all, List<Answer> answers) {
    boolean idle() {
      return answers.isEmpty();
    }
  }

  static final List<Program> PROGRAMS = List.of(
      new Program("hot-loop", "diag.hotloop.ImageFilter", List.of(), Part.TUNING, false,
          List.of(Answer.of("/Code/diag.hotloop/ImageFilter/blur", "cpu_bound"))),
      // looked at while the bursts were built (26-27 Nov 2026), so no longer held out
      new Program("megamorphic", "diag.dispatch.Interpreter", List.of(), Part.TUNING, false,
          List.of(Answer.of("/Code/diag.dispatch", "method_call_overhead"))),
      new Program("small-reads", "diag.smallreads.LineClient", List.of(), Part.TUNING, false,
          List.of(Answer.of("/Code/diag.smallreads/LineClient/readLine", "io_wait", "small_io_ops"),
              Answer.of("/IO", "small_io_ops"))),
      new Program("alloc-churn", "diag.churn.EventCounter", List.of("-Xmx1g"), Part.HELD_OUT, false,
          List.of(Answer.of("/Code/diag.churn", "object_creation_overhead", "allocation_share"))),
      new Program("gc-pressure", "diag.gc.SessionCache", List.of("-Xmx256m"), Part.TUNING, false,
          List.of(Answer.of("", "memory_pressure"))),
      new Program("lock-across-sleep", "diag.lockslow.AuditLog", List.of(), Part.HELD_OUT, false,
          List.of(Answer.of("/SyncObjects/monitors/diag.lockslow.AuditLog", "sync_wait"),
              Answer.of("/Code/diag.lockslow/AuditLog/append", "sync_wait"))),
      new Program("two-causes", "diag.twocauses.PriceService", List.of(), Part.TUNING, true,
          List.of(Answer.of("/Code/diag.twocauses/PriceService/price", "cpu_bound"),
              Answer.of("ReentrantLock", "sync_wait"))),
      new Program("phases", "diag.phases.BatchJob", List.of(), Part.HELD_OUT, false,
          List.of(Answer.of("/Code/diag.phases/BatchJob/parse", "cpu_bound"),
              Answer.of("/Code/diag.phases/BatchJob/write", "io_wait"))),
      new Program("synced-writes", "diag.filesync.Journal", List.of(), Part.TUNING, false,
          List.of(Answer.of("/Code/diag.filesync/Journal/append", "io_wait", "small_io_ops"),
              Answer.of("/IO/file", "io_wait", "small_io_ops"))),
      // its failures were studied when class loading came to be charged to the defining loader (29 Nov 2026), so no
      // longer held out
      new Program("class-loading", "diag.classchurn.PluginHost", List.of(), Part.TUNING, false,
          List.of(Answer.of("/Code/diag.classchurn", "class_load_time"),
              Answer.of("/Threads", "class_load_time"))),
      new Program("proxy-per-request", "diag.proxies.TenantGateway", List.of(), Part.HELD_OUT, false,
          List.of(Answer.of("/Code/diag.proxies", "class_load_time"))),
      new Program("juc-contention", "diag.parking.Inventory", List.of(), Part.TUNING, false,
          List.of(Answer.of("ReentrantLock", "sync_wait"),
              Answer.of("/Code/diag.parking/Inventory/reserve", "sync_wait"))),
      new Program("huge-method", "diag.interp.RuleScorer", List.of(), Part.HELD_OUT, false,
          List.of(Answer.of("/Code/diag.interp/RuleScorer/score", "interpreted_time"))),
      new Program("jit-bound", "diag.jit.FormulaEngine", List.of(), Part.HELD_OUT, false,
          List.of(Answer.of("", "jit_compile_time"))),
      new Program("idle", "diag.idle.Scheduler", List.of(), Part.TUNING, false, List.of()),
      new Program("javac", "diag.real.Javac", List.of(), Part.REAL, false,
          List.of(Answer.of("/Code/com.sun.tools.javac", "cpu_bound"))),
      new Program("h2-orders", "diag.real.H2Orders", List.of(), Part.REAL, false,
          List.of(Answer.of("/Code/org.h2", "cpu_bound"))),
      new Program("lucene-indexer", "diag.real.LuceneIndexer", List.of(), Part.REAL, false,
          List.of(Answer.of("/Code/org.apache.lucene", "cpu_bound"))),
      // JFR: Jackson, rendering the responses, on 77% of the samples; Jetty, which calls the handler, on 86%
      new Program("http-server", "diag.real.JettyOrdersApi", List.of(), Part.REAL, false,
          List.of(Answer.of("/Code/com.fasterxml.jackson", "cpu_bound"),
              Answer.of("/Code/org.eclipse.jetty", "cpu_bound"))));

  /** The programs whose id is in {@code ids} (all when empty), in the suite's order; an unknown id is an error. */
  static List<Program> select(List<String> ids) {
    for (String id : ids) {
      if (PROGRAMS.stream().noneMatch(p -> p.id().equals(id))) {
        throw new IllegalArgumentException("no program '" + id + "' in the diagnosis suite; known: "
            + PROGRAMS.stream().map(Program::id).toList());
      }
    }
    return PROGRAMS.stream().filter(p -> ids.isEmpty() || ids.contains(p.id())).toList();
  }
}
