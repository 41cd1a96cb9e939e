package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.ActiveMetric;
import dev.bottlenose.daemon.session.CodePlaces;
import dev.bottlenose.daemon.session.MetricValue;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.TargetSession;
import dev.bottlenose.metrics.VmAppBreakdown;
import dev.bottlenose.metrics.VmAppBreakdown.Category;
import dev.bottlenose.model.Focus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code vmapp --pid N [--focus F] [--for 10s]}: the VM-vs-application breakdown of a focus's time
 * ({@link VmAppBreakdown}), measured for a while and averaged, each category in seconds per second, with the
 * program's, the VM's and the blocked time added up; then every metric it enabled is removed.
 */
@Command(name = "vmapp", description = {
    "the VM-vs-application breakdown of a focus's time: the program's code (interpreted, compiled), what the VM",
    "spends on it (GC, JIT, class loading, safepoints, call and allocation overhead) and its threads blocked,",
    "in seconds per second averaged over --for (the first interval, which the enabling cuts short, left out)"})
final class VmAppCommand implements Callable<Integer> {
  @ParentCommand
  Main main;

  @Mixin
  TargetOptions target;

  @Option(names = "--focus", paramLabel = "FOCUS", description = "where: <> the whole program (default), a package,"
      + " class or method as Java writes it, or a focus </Code/...,/Threads/...>")
  String focus = "<>";

  @Option(names = "--for", paramLabel = "DURATION", description = "how long to measure (default: 10s)")
  Duration length = Duration.ofSeconds(10);

  @Mixin
  JsonOption output;

  @Override
  public Integer call() {
    Console console = main.console;
    try (TargetSession session = target.attach(console, "cli")) {
      String at = CodePlaces.focus(session, focus);
      Map<String, Long> ids = new LinkedHashMap<>();
      Map<String, String> errors = new LinkedHashMap<>();
      List<String> keys = new ArrayList<>();
      VmAppBreakdown.CATEGORIES.stream().filter(c -> c.metric() != null).forEach(c -> keys.add(c.key()));
      keys.add(VmAppBreakdown.CPU);
      Focus parsed = parsed(at);
      for (String key : keys) {
        String metric = key.equals(VmAppBreakdown.CPU) ? key : parsed == null ? category(key).metric()
            : VmAppBreakdown.metric(category(key), parsed);
        try {
          ActiveMetric m = session.enableMetric(metric, at, "cli vmapp");
          ids.put(key, m.metricId());
        } catch (SessionException e) {
          errors.put(key, e.getMessage());
        }
      }
      Averages averages = new Averages(ids);
      session.values().onSample(averages::add);
      CountDownLatch ended = new CountDownLatch(1);
      session.onEnd(reason -> ended.countDown());
      boolean targetEnded = MeasureCommand.await(ended, length);
      if (!targetEnded) {
        ids.values().forEach(session::disableMetric);
      }
      Map<String, Double> shares = averages.shares();
      if (errors.containsKey(VmAppBreakdown.CPU)) {
        errors.put("compiled", errors.get(VmAppBreakdown.CPU));
      }
      if (output.json) {
        JsonOption.print(console, json(at, averages.intervals(), shares, errors));
      } else {
        print(console, at, averages.intervals(), shares, errors);
      }
      if (targetEnded) {
        console.err().println("bottlenose: " + session.endReason() + "; the figures above are what was measured");
        return 1;
      }
      return averages.intervals() == 0 ? 1 : 0;
    }
  }

  /** The focus {@code at} names, or null when it names none (each metric's enabling then says why). */
  private static Focus parsed(String at) {
    try {
      return Focus.parse(at);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Category category(String key) {
    return VmAppBreakdown.CATEGORIES.stream().filter(c -> c.key().equals(key)).findFirst().orElseThrow();
  }

  private static void print(Console console, String at, int intervals, Map<String, Double> shares,
      Map<String, String> errors) {
    console.out().println("VM vs app at " + at + " over " + intervals + " interval(s), in seconds per second (1.00 is"
        + " all of one thread's time):");
    Map<String, Double> kinds = new LinkedHashMap<>();
    for (Category c : VmAppBreakdown.CATEGORIES) {
      Double v = shares.get(c.key());
      String value = v != null ? String.format(Locale.ROOT, "%7.3f", v)
          : "      -  (" + errors.getOrDefault(c.key(), "no value") + ")";
      console.out().println(String.format(Locale.ROOT, "  %-4s  %-30s %s", c.kind(), c.label(), value));
      if (v != null) {
        kinds.merge(c.kind(), v, Double::sum);
      }
    }
    double total = kinds.values().stream().mapToDouble(Double::doubleValue).sum();
    List<String> parts = new ArrayList<>();
    kinds.forEach((kind, v) -> parts.add(String.format(Locale.ROOT, "%s %.3f (%.0f%%)", kind, v,
        total > 0 ? 100 * v / total : 0)));
    console.out().println("  " + String.join(", ", parts) + String.format(Locale.ROOT, "; total %.3f", total));
  }

  private static Map<String, Object> json(String at, int intervals, Map<String, Double> shares,
      Map<String, String> errors) {
    List<Object> categories = new ArrayList<>();
    Map<String, Double> kinds = new LinkedHashMap<>();
    for (Category c : VmAppBreakdown.CATEGORIES) {
      Double v = shares.get(c.key());
      categories.add(JsonOption.object("key", c.key(), "label", c.label(), "kind", c.kind(), "secondsPerSecond", v,
          "error", v == null ? errors.get(c.key()) : null));
      if (v != null) {
        kinds.merge(c.kind(), v, Double::sum);
      }
    }
    Map<String, Object> totals = new LinkedHashMap<>(kinds);
    totals.put("total", kinds.values().stream().mapToDouble(Double::doubleValue).sum());
    return JsonOption.object("focus", at, "intervals", intervals, "categories", categories, "totals", totals);
  }

  /** Each category's mean over the intervals after the first. */
  private static final class Averages {
    private final Map<String, Long> ids;
    private final Map<String, Double> sums = new HashMap<>();
    private int intervals;
    private boolean first = true;

    Averages(Map<String, Long> ids) {
      this.ids = ids;
    }

    synchronized void add(Sample s) {
      Map<String, Double> byKey = new HashMap<>();
      ids.forEach((key, id) -> {
        MetricValue v = s.metric(id);
        if (v != null && v.hasValue()) {
          byKey.put(key, v.value());
        }
      });
      if (byKey.isEmpty()) {
        return;
      }
      if (first) {
        first = false;
        return;
      }
      VmAppBreakdown.shares(byKey).forEach((k, v) -> sums.merge(k, v, Double::sum));
      intervals++;
    }

    synchronized int intervals() {
      return intervals;
    }

    synchronized Map<String, Double> shares() {
      Map<String, Double> mean = new LinkedHashMap<>();
      sums.forEach((k, v) -> mean.put(k, v / intervals));
      return mean;
    }
  }
}
