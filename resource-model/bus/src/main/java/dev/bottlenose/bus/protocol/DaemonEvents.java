package dev.bottlenose.bus.protocol;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a daemon publishes on the event bus ({@code dev.bottlenose.bus.Addresses}), one record each, and the
 * parts a reply shares with them (a sample is also in {@code values.history}, an announcement is the registry's
 * entry and the {@code daemons.list} reply's). {@code from(body)} reads and validates a message where a member
 * receives it (a bad field is a {@link BadField} naming the field, nested ones as {@code metrics[2].value}),
 * {@code toJson()} writes it with the fields, their order and their nulls as the pages and the REST API read them.
 */
public final class DaemonEvents {
  private DaemonEvents() {}

  /** {@code event} of an announcement on {@code Addresses.DAEMONS}. */
  public static final String STARTED = "started";
  public static final String STOPPED = "stopped";
  public static final String EXITED = "exited";
  /** The state of a daemon whose target runs ({@code TargetSession.State}). */
  public static final String RUNNING = "RUNNING";

  /**
   * A daemon as it announces itself: the entry of the daemons' registry ({@code event} null), and what it
   * publishes on {@code Addresses.DAEMONS} when it starts, stops or its target exits ({@code event}); the
   * {@code exited} address carries the same, with the {@code endReason}. {@code node}: its cluster member,
   * null in an entry made from a status.
   */
  public record Announcement(String daemonId, long pid, String mainClass, String javaVersion, String host,
      String state, boolean held, String node, String endReason, String event) {
    public static Announcement from(Object body) {
      return read(Fields.of(body));
    }

    static Announcement read(Fields f) {
      return new Announcement(f.requiredText("daemonId"), f.wholeNumber("pid", -1), f.text("mainClass"),
          f.text("javaVersion"), f.text("host"), f.text("state"), f.bool("held", false), f.text("node"),
          f.text("endReason"), f.text("event"));
    }

    /** A registry entry when {@code body} is one (a daemon's, of a live member), else null: the registry is shared. */
    public static Announcement fromOrNull(Object body) {
      try {
        return from(body);
      } catch (BadField e) {
        return null;
      }
    }

    public boolean isRunning() {
      return RUNNING.equals(state);
    }

    /** This announcement for {@code event} ({@link #STARTED}, {@link #STOPPED}, {@link #EXITED}). */
    public Announcement withEvent(String event) {
      return new Announcement(daemonId, pid, mainClass, javaVersion, host, state, held, node, endReason, event);
    }

    public Announcement withNode(String node) {
      return new Announcement(daemonId, pid, mainClass, javaVersion, host, state, held, node, endReason, event);
    }

    /** The daemon after its target ended: its new state, and why. */
    public Announcement ended(String state, String endReason) {
      return new Announcement(daemonId, pid, mainClass, javaVersion, host, state, held, node, endReason, event);
    }

    public JsonObject toJson() {
      JsonObject o = new JsonObject().put("daemonId", daemonId).put("pid", pid).put("mainClass", mainClass)
          .put("javaVersion", javaVersion).put("host", host).put("state", state).put("held", held);
      return put(o, "node", node, "endReason", endReason, "event", event);
    }
  }

  /** {@code changes}: the target's resource hierarchies changed; each change as the agent describes it. */
  public record Changes(List<JsonObject> changes) {
    public Changes {
      changes = List.copyOf(changes);
    }

    public static Changes from(Object body) {
      return new Changes(Fields.of(body).objects("changes").stream().map(Fields::body).toList());
    }

    public JsonObject toJson() {
      return new JsonObject().put("changes", new JsonArray(List.copyOf(changes)));
    }
  }

  /**
   * {@code values}: one interval's sample, published every interval (and kept for {@code values.history}):
   * each probe's and watched source's counts, what measuring cost ({@link Cost}), the VM counters' changes
   * ({@code vm}) and each enabled metric's value.
   */
  public record Sample(long atMillis, long intervalNanos, List<ProbeValue> probes, List<SourceValue> sources,
      Cost cost, Map<String, Long> vm, List<MetricValue> metrics) {
    public Sample {
      probes = List.copyOf(probes);
      sources = List.copyOf(sources);
      vm = java.util.Collections.unmodifiableMap(new TreeMap<>(vm));
      metrics = List.copyOf(metrics);
    }

    public static Sample from(Object body) {
      return read(Fields.of(body));
    }

    static Sample read(Fields f) {
      Fields cost = f.nested("cost");
      if (cost == null) {
        throw Fields.missing(f.name("cost"), "an object");
      }
      return new Sample(f.requiredWholeNumber("atMillis"), f.requiredWholeNumber("intervalNanos"),
          f.objects("probes").stream().map(ProbeValue::read).toList(),
          f.objects("sources").stream().map(SourceValue::read).toList(), Cost.read(cost), f.wholeNumbers("vm"),
          f.objects("metrics").stream().map(MetricValue::read).toList());
    }

    /** The value of enabled metric {@code metricId} in this sample, or null. */
    public MetricValue metric(long metricId) {
      return metrics.stream().filter(m -> m.metricId() == metricId).findFirst().orElse(null);
    }

    /** The interval in whole milliseconds. */
    public long intervalMillis() {
      return Math.round(intervalNanos / 1e6);
    }

    public JsonObject toJson() {
      return new JsonObject().put("atMillis", atMillis).put("intervalNanos", intervalNanos)
          .put("probes", array(probes.stream().map(ProbeValue::toJson).toList()))
          .put("sources", array(sources.stream().map(SourceValue::toJson).toList()))
          .put("cost", cost.toJson()).put("vm", new JsonObject(new java.util.LinkedHashMap<>(vm)))
          .put("metrics", array(metrics.stream().map(MetricValue::toJson).toList()));
    }
  }

  /**
   * The counts of a probe or source in one interval: totals since it started, the interval's change, and that
   * change per second ({@code nanos} per second is a fraction of one thread's time).
   */
  public record Totals(long count, long nanos, long bytes, long countDelta, long nanosDelta, long bytesDelta,
      double countPerSecond, double nanosPerSecond, double bytesPerSecond) {
    static Totals read(Fields f) {
      return new Totals(f.wholeNumber("count", 0), f.wholeNumber("nanos", 0), f.wholeNumber("bytes", 0),
          f.wholeNumber("countDelta", 0), f.wholeNumber("nanosDelta", 0), f.wholeNumber("bytesDelta", 0),
          f.decimal("countPerSecond", 0), f.decimal("nanosPerSecond", 0), f.decimal("bytesPerSecond", 0));
    }

    void put(JsonObject o) {
      o.put("count", count).put("nanos", nanos).put("bytes", bytes).put("countDelta", countDelta)
          .put("nanosDelta", nanosDelta).put("bytesDelta", bytesDelta).put("countPerSecond", countPerSecond)
          .put("nanosPerSecond", nanosPerSecond).put("bytesPerSecond", bytesPerSecond);
    }
  }

  /** One probe's counts in a sample. */
  public record ProbeValue(long probeId, String method, String kind, Totals totals) {
    static ProbeValue read(Fields f) {
      return new ProbeValue(f.requiredWholeNumber("probeId"), f.text("method"), f.text("kind"), Totals.read(f));
    }

    public JsonObject toJson() {
      JsonObject o = new JsonObject().put("probeId", probeId).put("method", method).put("kind", kind);
      totals.put(o);
      return o;
    }
  }

  /**
   * One watched source's counts in a sample ({@code source}: what it counts, {@code {"event","code","thread","form"}}),
   * and the time the agent's counts are complete through (its last JFR flush; null when it does not say).
   */
  public record SourceValue(long sourceId, Map<String, Object> source, Totals totals, Long throughMillis) {
    public SourceValue {
      source = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(source));
    }

    static SourceValue read(Fields f) {
      Map<String, Object> source = f.object("source");
      return new SourceValue(f.requiredWholeNumber("sourceId"), source == null ? Map.of() : source, Totals.read(f),
          f.wholeNumber("throughMillis"));
    }

    public JsonObject toJson() {
      JsonObject o = new JsonObject().put("sourceId", sourceId).put("source", new JsonObject(
          new java.util.LinkedHashMap<>(source)));
      totals.put(o);
      return put(o, "throughMillis", throughMillis);
    }
  }

  /**
   * What measuring cost the target in one interval: the probes' executions, the agent's CPU, the JFR events
   * recorded only for watched sources, the retransformations' wall time, the process's CPU (-1: unknown), the
   * JIT and VM threads' CPU ({@code sideCpuNanos}, null: unknown), the target's read and write system calls
   * ({@code ioCalls}, null: unknown; what an I/O event per call would cost), the cost's share of the process's
   * CPU ({@code fraction}, null: unknown), the daemon's own CPU on the target's machine ({@code daemonCpuNanos},
   * null: unknown) and what the target's JIT spent compiling on the tool's behalf ({@code toolJitNanos}: the tool's
   * and JFR's code, classes its probes changed, what the attach threw away; part of {@code sideCpuNanos}; null:
   * unknown).
   */
  public record Cost(long probeNanos, long agentCpuNanos, long eventNanos, long retransformNanos,
      long processCpuNanos, Long sideCpuNanos, Long ioCalls, Double fraction, Long daemonCpuNanos, Long toolJitNanos) {
    static Cost read(Fields f) {
      return new Cost(f.wholeNumber("probeNanos", 0), f.wholeNumber("agentCpuNanos", 0), f.wholeNumber("eventNanos", 0),
          f.wholeNumber("retransformNanos", 0), f.requiredWholeNumber("processCpuNanos"), f.wholeNumber("sideCpuNanos"),
          f.wholeNumber("ioCalls"), f.decimal("fraction"), f.wholeNumber("daemonCpuNanos"), f.wholeNumber("toolJitNanos"));
    }

    public JsonObject toJson() {
      JsonObject o = new JsonObject().put("probeNanos", probeNanos).put("agentCpuNanos", agentCpuNanos)
          .put("eventNanos", eventNanos).put("retransformNanos", retransformNanos).put("processCpuNanos", processCpuNanos);
      put(o, "sideCpuNanos", sideCpuNanos, "ioCalls", ioCalls);
      o.put("fraction", fraction);
      return put(o, "daemonCpuNanos", daemonCpuNanos, "toolJitNanos", toolJitNanos);
    }
  }

  /**
   * One enabled metric's value in a sample, with its predicted and observed cost; a number that is not
   * finite travels as null (so {@code value} is null when the interval could not be evaluated, and {@code error}
   * says why). {@code dataThroughMillis}: the time its watched sources' events are counted through (null for a
   * metric of probes only).
   */
  public record MetricValue(long metricId, String metric, String focus, Double value, String unit,
      Double eventsPerSecond, Double predictedCost, Double observedCost, String error, Long dataThroughMillis) {
    static MetricValue read(Fields f) {
      return new MetricValue(f.requiredWholeNumber("metricId"), f.text("metric"), f.text("focus"), f.decimal("value"),
          f.text("unit"), f.decimal("eventsPerSecond"), f.decimal("predictedCost"), f.decimal("observedCost"),
          f.text("error"), f.wholeNumber("dataThroughMillis"));
    }

    public JsonObject toJson() {
      JsonObject o = new JsonObject().put("metricId", metricId).put("metric", metric).put("focus", focus)
          .put("value", value).put("unit", unit).put("eventsPerSecond", eventsPerSecond)
          .put("predictedCost", predictedCost).put("observedCost", observedCost);
      return put(o, "error", error, "dataThroughMillis", dataThroughMillis);
    }
  }

  static JsonArray array(List<?> values) {
    return new JsonArray(List.copyOf(values));
  }

  /** Puts each non-null value of the (field, value) pairs. */
  static JsonObject put(JsonObject o, Object... pairs) {
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i + 1] != null) {
        o.put((String) pairs[i], pairs[i + 1]);
      }
    }
    return o;
  }
}
