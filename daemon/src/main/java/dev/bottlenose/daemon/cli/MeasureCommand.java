package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.CodePlaces;
import dev.bottlenose.daemon.session.ProbeInfo;
import dev.bottlenose.daemon.session.ProbeValue;
import dev.bottlenose.daemon.session.RemovedProbe;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.TargetSession;
import dev.bottlenose.instrumentation.ProbeKind;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import dev.bottlenose.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code measure --pid N --probe KIND --focus FOCUS [--for 10s] [--interval 1s]}: inserts one probe,
 * prints its value every interval with rate and probe cost, then removes it and says whether the class
 * has its original bytes again. With {@code --metric NAME} it measures a metric instead ({@link MetricMeasure}).
 */
@Command(name = "measure", description = {
    "measure a probe or a metric at a focus for a while, then remove it",
    "with --probe: insert a probe, print values, remove it",
    "with --metric: measure a metric (built-in or from FILE), print its value and measured cost every interval,"
        + " remove everything"})
final class MeasureCommand implements Callable<Integer> {
  @ParentCommand
  Main main;

  @Mixin
  TargetOptions target;

  @Option(names = "--probe", paramLabel = "KIND", completionCandidates = ProbeKinds.class,
      description = "the probe to insert: call_count, wall_inclusive, wall_exclusive, call_site, allocation, monitor")
  String probe;

  @Option(names = "--metric", paramLabel = "NAME", description = "the metric to measure (bottlenose metric list)")
  String metric;

  @Option(names = "--metrics", paramLabel = "FILE", description = "a metric file to add first (goes with --metric)")
  String metrics;

  @Option(names = "--focus", paramLabel = "FOCUS", description = "where: com.acme.Cache::get,"
      + " com.acme.Cache.get(Object), a class or a package; or /Code/<package>/<Class>/<method>[descriptor],"
      + " </Code/...>, <> the whole program")
  String focus;

  @Option(names = "--for", paramLabel = "DURATION", description = "how long to measure (default: 10s)")
  Duration length = Duration.ofSeconds(10);

  @Option(names = "--callee", paramLabel = "METHOD", description = "the callee of a call_site probe")
  String callee;

  @Mixin
  JsonOption output;

  @Override
  public Integer call() {
    Console console = main.console;
    if ((probe != null) == (metric != null)) {
      throw new UsageException(probe != null ? "'measure' takes --probe KIND or --metric NAME, not both"
          : "'measure' needs --probe KIND or --metric NAME");
    }
    if (focus == null) {
      throw new UsageException("'measure' needs --focus");
    }
    target.sessionOptions("cli");
    if (metric != null) {
      if (callee != null) {
        throw new UsageException("--callee goes with --probe call_site; a metric names its own probes");
      }
      return MetricMeasure.run(target, metrics, metric, focus, length, output.json, console);
    }
    if (metrics != null) {
      throw new UsageException("--metrics FILE goes with --metric NAME");
    }
    try (TargetSession session = target.attach(console, "cli")) {
      return measure(session, focus, probe, callee, length, output.json, console);
    }
  }

  /**
   * Inserts the probe, prints values for {@code length}, removes it; 1 if the target exits meanwhile. With
   * {@code json} each step is a line of JSON: {@code {"event":"inserted"|"sample"|"removed", ...}}.
   */
  static int measure(TargetSession session, String focus, String kind, String callee, Duration length, boolean json,
      Console console) {
    ProbeInfo probe = session.enable(CodePlaces.path(session, focus), kind,
        callee == null ? null : CodePlaces.path(session, callee), "cli");
    if (json) {
      JsonOption.print(console, JsonOption.object("event", "inserted", "probe", probe.toJson()));
    } else {
      console.out().println("inserted " + probe.kind() + " probe " + probe.probeId() + " into " + probe.method()
          + " (retransform " + ValueFormat.millis(probe.retransformNanos()) + ")");
    }
    long start = System.nanoTime();
    session.values().onSample(s -> printSample(s, probe.probeId(), start, json, console));
    CountDownLatch ended = new CountDownLatch(1);
    session.onEnd(reason -> ended.countDown());
    if (await(ended, length)) {
      console.err().println("bottlenose: " + session.endReason() + "; the values above are what was measured");
      return 1;
    }
    RemovedProbe removed = session.disable(probe.probeId());
    if (json) {
      JsonOption.print(console, JsonOption.object("event", "removed", "probe", removed.toJson()));
      return 0;
    }
    console.out().println("removed probe " + removed.probeId() + " from " + removed.method() + " (retransform "
        + ValueFormat.millis(removed.retransformNanos()) + "): " + (removed.classRestored()
        ? "class " + removed.className() + " restored to its original bytes"
        : "class " + removed.className() + " still has other probes"));
    return 0;
  }

  private static void printSample(Sample s, long probeId, long start, boolean json, Console console) {
    ProbeValue v = s.probe(probeId);
    if (v != null) {
      double at = (System.nanoTime() - start) / 1e9;
      if (json) {
        JsonOption.print(console, JsonOption.object("event", "sample", "seconds", at, "value", v.toJson(), "cost", s.cost().toJson()));
        return;
      }
      console.out().println(String.format(Locale.ROOT, "%6.1fs  %s  %s", at, ValueFormat.probe(v),
          ValueFormat.cost(s.cost())));
    }
  }

  static boolean await(CountDownLatch latch, Duration length) {
    try {
      return latch.await(length.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The values of {@code --probe}, for shell completion. */
  static final class ProbeKinds implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(ProbeKind.values()).map(ProbeKind::word).iterator();
    }
  }
}
