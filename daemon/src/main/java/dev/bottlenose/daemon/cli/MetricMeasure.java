package dev.bottlenose.daemon.cli;

import dev.bottlenose.cli.ExitCodes;
import dev.bottlenose.daemon.session.ActiveMetric;
import dev.bottlenose.daemon.session.BusyClassException;
import dev.bottlenose.daemon.session.CodePlaces;
import dev.bottlenose.daemon.session.MetricFileOutcome;
import dev.bottlenose.daemon.session.MetricValue;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.TargetSession;
import dev.bottlenose.metrics.Diagnostics;
import dev.bottlenose.metrics.MetricCompiler;
import dev.bottlenose.metrics.MetricDefinition;
import dev.bottlenose.metrics.MetricException;
import dev.bottlenose.metrics.MetricLibrary;
import dev.bottlenose.metrics.Numbers;
import dev.bottlenose.model.CodeNames;
import dev.bottlenose.model.Focus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * {@code measure --metric NAME --focus FOCUS [--metrics FILE]}: checks the metric at the focus before
 * attaching, then measures it, prints its value and cost every interval, and removes its probes and sources.
 */
final class MetricMeasure {
  private MetricMeasure() {}

  static int run(TargetOptions target, String file, String metric, String focus, Duration length, boolean json,
      Console console) {
    MetricCommand.Loaded loaded = file == null ? null : MetricCommand.load(file);
    if (loaded != null && loaded.errors() != null) {
      loaded.errors().forEach(e -> console.err().println(e.located()));
      return ExitCodes.FAILED;
    }
    String problem = precheck(metric, focus, file, loaded);
    if (problem != null) {
      console.err().println("bottlenose measure: " + problem);
      return ExitCodes.FAILED;
    }
    try (TargetSession session = target.attach(console, "cli")) {
      if (loaded != null) {
        MetricFileOutcome outcome = session.addMetrics(file, loaded.text());
        if (json) {
          JsonOption.print(console, JsonOption.object("event", "added", "file", file, "metrics", outcome.added()));
        } else {
          console.out().println("added " + outcome.added().size() + " metric(s) from " + file);
        }
      }
      return measure(session, metric, focus, length, json, console);
    }
  }

  /** Why the metric cannot be measured at the focus, or null; nothing is attached before this passes. */
  private static String precheck(String metric, String focusText, String file, MetricCommand.Loaded loaded) {
    MetricLibrary library = MetricLibrary.builtin();
    if (loaded != null) {
      Diagnostics d = library.with(file, loaded.text());
      library = d.library();
    }
    if (!library.contains(metric)) {
      return "no metric '" + metric + "'" + (file == null ? " among the built-ins" : " among the built-ins and " + file)
          + "; known: " + library.metrics().stream().map(MetricDefinition::name).collect(Collectors.joining(", "));
    }
    if (CodeNames.isJavaName(focusText)) {
      return null;
    }
    try {
      MetricCompiler.compile(library.metric(metric), Focus.parse(focusText));
      return null;
    } catch (MetricException | IllegalArgumentException e) {
      return "metric '" + metric + "' at " + focusText + ": " + e.getMessage();
    }
  }

  static int measure(TargetSession session, String metric, String focus, Duration length, boolean json, Console console) {
    ActiveMetric m = session.enableMetric(metric, CodePlaces.focus(session, focus), "cli");
    if (json) {
      JsonOption.print(console, JsonOption.object("event", "measuring", "metric", m.toJson()));
    } else {
      console.out().println(summary(m));
      m.classesBusy().forEach((c, why) -> console.out().println("  left out " + c + ": " + why + "; "
          + BusyClassException.HARM));
    }
    long start = System.nanoTime();
    session.values().onSample(s -> print(s, m.metricId(), start, json, console));
    CountDownLatch ended = new CountDownLatch(1);
    session.onEnd(reason -> ended.countDown());
    if (MeasureCommand.await(ended, length)) {
      console.err().println("bottlenose: " + session.endReason() + "; the values above are what was measured");
      return ExitCodes.FAILED;
    }
    Map<String, Object> removed = session.disableMetric(m.metricId());
    if (json) {
      Map<String, Object> event = new LinkedHashMap<>();
      event.put("event", "removed");
      event.putAll(removed);
      JsonOption.print(console, event);
    } else {
      console.out().println("removed " + removed.get("probesRemoved") + " probe(s) and " + removed.get("sourcesRemoved")
          + " source(s) of metric " + m.metricId() + "; " + removed.get("classesRestored")
          + " class(es) restored to their original bytes");
    }
    return ((List<?>) removed.get("failures")).isEmpty() ? ExitCodes.OK : ExitCodes.FAILED;
  }

  private static String summary(ActiveMetric m) {
    Map<String, Object> json = m.toJson();
    return String.format(Locale.ROOT, "measuring %s at %s (metric %d): %d probe(s)%s, %d source(s); predicted cost"
        + " %.4f%% of a CPU at 100 events/s", m.metric(), m.focus(), m.metricId(), m.probeCount(),
        expansions(json), m.sourceByItem().size(), (double) json.get("predictedCostAt100PerSecond") * 100);
  }

  private static String expansions(Map<String, Object> json) {
    Map<?, ?> expanded = (Map<?, ?>) json.get("methodsInstrumented");
    if (expanded.isEmpty()) {
      return "";
    }
    int methods = expanded.values().stream().mapToInt(v -> ((Number) v).intValue()).sum();
    return " (" + methods + " methods instrumented, " + json.get("methodsSkipped") + " abstract, native or refused skipped)";
  }

  private static void print(Sample s, long metricId, long start, boolean json, Console console) {
    MetricValue v = s.metric(metricId);
    if (v == null) {
      return;
    }
    double at = (System.nanoTime() - start) / 1e9;
    if (json) {
      JsonOption.print(console, JsonOption.object("event", "sample", "seconds", at, "value", v.toJson()));
      return;
    }
    String value = v.hasValue() ? Numbers.plain(v.value(), 6) + " " + v.unit() : "(" + v.error() + ")";
    String observed = Double.isNaN(v.observedCost()) ? "unknown"
        : String.format(Locale.ROOT, "%.3f%% of process CPU", v.observedCost() * 100);
    console.out().println(String.format(Locale.ROOT, "%6.1fs  %s = %s  cost: measured %s, predicted %.4f%% of a CPU",
        at, v.metric(), value, observed, v.predictedCost() * 100));
  }
}
