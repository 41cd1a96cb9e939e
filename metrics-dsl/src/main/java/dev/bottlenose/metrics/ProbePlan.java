package dev.bottlenose.metrics;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the daemon asks the agent for to measure one metric–focus pair, and how to turn the answers
 * into the metric's value. Items are bytecode probes ({@code insert}), probe expansions (one probe per
 * method of a class or package, which the daemon expands against the target's methods and sums), and
 * watched sources ({@code watch}); the formula reads their interval deltas. See metrics-dsl/README.md.
 */
public final class ProbePlan {
  /**
   * What one occurrence of a watched JFR event costs the thread that commits it (a stack walk with its trace),
   * the cost model's figure; a daemon charges it for every event its sources made the JVM record.
   */
  public static final double WATCHED_EVENT_NANOS = CostModel.EVENT_NANOS;
  /** As {@link #WATCHED_EVENT_NANOS}, for an event recorded without its stack trace. */
  public static final double WATCHED_STACKLESS_EVENT_NANOS = CostModel.STACKLESS_EVENT_NANOS;

  private final String metric;
  private final Focus focus;
  private final String unit;
  private final String combine;
  private final List<Item> items;
  private final Formula formula;
  private final List<String> notes;

  ProbePlan(String metric, Focus focus, String unit, String combine, List<Item> items, Formula formula, List<String> notes) {
    this.metric = metric;
    this.focus = focus;
    this.unit = unit;
    this.combine = combine;
    this.items = List.copyOf(items);
    this.formula = formula;
    this.notes = List.copyOf(notes);
  }

  /** One thing to measure: {@code type} is probe, probes (an expansion) or source; {@code id} names it in the formula. */
  public record Item(String id, String type, Map<String, Object> request) {
    /** The item as JSON: {@code {"id":…,"type":…, …request}}; a source's request is the PROTOCOL's {@code source} object. */
    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", id);
      m.put("type", type);
      m.putAll(request);
      return m;
    }
  }

  /**
   * Predicted overhead: a fixed part (nanoseconds of target CPU per second, from sampling) plus a part
   * per event, where one event is one execution of each probe or one occurrence of each watched event.
   */
  public record Cost(double fixedNanosPerSecond, double nanosPerEvent) {
    /** Overhead as a fraction of one CPU at {@code eventsPerSecond} executions of each item. */
    public double fractionAt(double eventsPerSecond) {
      return (fixedNanosPerSecond + nanosPerEvent * eventsPerSecond) / 1e9;
    }

    /** {@code {"fixedNanosPerSecond":…,"nanosPerEvent":…}}. */
    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("fixedNanosPerSecond", fixedNanosPerSecond);
      m.put("nanosPerEvent", nanosPerEvent);
      return m;
    }
  }

  public String metric() {
    return metric;
  }

  /**
   * How many of its items record an event per operation on an object of {@code hierarchy}: a file or socket read or
   * write ({@code /IO}), a park, wait or monitor entry ({@code /SyncObjects}; not the lock samples, taken on a timer).
   * Each such operation of the program is one event of one of them, so those items together cost one event per
   * operation, which the target's I/O system calls, or its threads' waits, bound.
   */
  public int eventItemsAbout(dev.bottlenose.model.Hierarchy hierarchy) {
    int n = 0;
    for (Item item : items) {
      Event e = item.type().equals("source") && item.request().get("source") instanceof Map<?, ?> source
          ? Event.byWord(String.valueOf(source.get("event"))) : null;
      n += e != null && !e.sampled() && e.objectHierarchy() == hierarchy ? 1 : 0;
    }
    return n;
  }

  public Focus focus() {
    return focus;
  }

  public String unit() {
    return unit;
  }

  public String combine() {
    return combine;
  }

  public List<Item> items() {
    return items;
  }

  /** The formula as readable text, e.g. {@code ((s0.nanos * 1.0E-9) / interval_s)}. */
  public String formulaText() {
    return formula.text();
  }

  /** What the plan had to approximate or leave to the daemon (form mapping, expansions, whole-program wall). */
  public List<String> notes() {
    return notes;
  }

  /** What the plan costs with its {@code cpu_sample} sources at the agent's configured period (the calibration's). */
  public Cost predictedCost(Calibration calibration) {
    return predictedCost(calibration, calibration.samplePeriodNanos());
  }

  /**
   * What the plan costs with its {@code cpu_sample} sources at {@code cpuSamplePeriodNanos} (a search's sampling
   * period, which its requests carry), its other sampled sources at the calibration's.
   */
  public Cost predictedCost(Calibration calibration, double cpuSamplePeriodNanos) {
    return CostModel.predict(items, calibration, cpuSamplePeriodNanos);
  }

  Formula formula() {
    return formula;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metric", metric);
    m.put("focus", focus.toString());
    m.put("unit", unit);
    m.put("combine", combine);
    List<Object> list = new ArrayList<>();
    items.forEach(i -> list.add(i.toJson()));
    m.put("items", list);
    m.put("formula", formula.toJson());
    m.put("formulaText", formula.text());
    m.put("notes", notes);
    return m;
  }

  /** Reads {@link #toJson} text back (the daemon receives plans this way). */
  public static ProbePlan fromJson(String json) {
    try {
      return read((Map<?, ?>) Json.parse(json));
    } catch (MetricException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new MetricException("not a probe plan (" + e.getMessage() + "): " + json);
    }
  }

  private static ProbePlan read(Map<?, ?> m) {
    List<Item> items = new ArrayList<>();
    for (Object o : (List<?>) m.get("items")) {
      Map<String, Object> request = new LinkedHashMap<>();
      ((Map<?, ?>) o).forEach((k, v) -> request.put(String.valueOf(k), v));
      String id = String.valueOf(request.remove("id"));
      String type = String.valueOf(request.remove("type"));
      items.add(new Item(id, type, request));
    }
    List<String> notes = new ArrayList<>();
    ((List<?>) m.get("notes")).forEach(n -> notes.add(String.valueOf(n)));
    return new ProbePlan(String.valueOf(m.get("metric")), Focus.parse(String.valueOf(m.get("focus"))), String.valueOf(m.get("unit")),
        String.valueOf(m.get("combine")), items, Formula.parse(m.get("formula")), notes);
  }

  @Override
  public String toString() {
    return Json.write(toJson());
  }
}
