package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.ProbeInfo;
import dev.bottlenose.daemon.session.ProbeValue;
import dev.bottlenose.daemon.session.RemovedProbe;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.TargetSession;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code measure --pid N --probe KIND --focus FOCUS [--for 10s] [--interval 1s]}: inserts one probe,
 * prints its value every interval with rate and probe cost, then removes it and says whether the class
 * has its original bytes again. With {@code --metric NAME} it measures a metric instead ({@link MetricMeasure}).
 */
final class MeasureCommand {
  private MeasureCommand() {}

  static int run(Args a, Console console) {
    a.atMostPositional(0);
    if (a.has("probe") == a.has("metric")) {
      throw new UsageException(a.has("probe") ? "'measure' takes --probe KIND or --metric NAME, not both"
          : "'measure' needs --probe KIND or --metric NAME");
    }
    String focus = a.required("focus");
    Duration length = a.duration("for", Duration.ofSeconds(10));
    Targets.options(a, "cli");
    if (a.has("metric")) {
      if (a.has("callee")) {
        throw new UsageException("--callee goes with --probe call_site; a metric names its own probes");
      }
      return MetricMeasure.run(a, a.required("metric"), focus, length, console);
    }
    if (a.has("metrics")) {
      throw new UsageException("--metrics FILE goes with --metric NAME");
    }
    String kind = a.required("probe");
    try (TargetSession session = Targets.attach(a, console, "cli")) {
      return measure(session, focus, kind, a.option("callee", null), length, console);
    }
  }

  /** Inserts the probe, prints values for {@code length}, removes it; 1 if the target exits meanwhile. */
  static int measure(TargetSession session, String focus, String kind, String callee, Duration length,
      Console console) {
    ProbeInfo probe = session.enable(focus, kind, callee, "cli");
    console.out().println("inserted " + probe.kind() + " probe " + probe.probeId() + " into " + probe.method()
        + " (retransform " + ValueFormat.millis(probe.retransformNanos()) + ")");
    long start = System.nanoTime();
    session.values().onSample(s -> printSample(s, probe.probeId(), start, console));
    CountDownLatch ended = new CountDownLatch(1);
    session.onEnd(reason -> ended.countDown());
    if (await(ended, length)) {
      console.err().println("bottlenose: " + session.endReason() + "; the values above are what was measured");
      return 1;
    }
    RemovedProbe removed = session.disable(probe.probeId());
    console.out().println("removed probe " + removed.probeId() + " from " + removed.method() + " (retransform "
        + ValueFormat.millis(removed.retransformNanos()) + "): " + (removed.classRestored()
        ? "class " + removed.className() + " restored to its original bytes"
        : "class " + removed.className() + " still has other probes"));
    return 0;
  }

  private static void printSample(Sample s, long probeId, long start, Console console) {
    ProbeValue v = s.probe(probeId);
    if (v != null) {
      double at = (System.nanoTime() - start) / 1e9;
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
}
