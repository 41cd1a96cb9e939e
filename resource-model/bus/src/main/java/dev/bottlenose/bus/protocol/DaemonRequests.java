package dev.bottlenose.bus.protocol;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The requests a daemon answers on the event bus ({@code dev.bottlenose.bus.Addresses}), one record each:
 * {@code from(body)} reads and validates a request where it enters the daemon (a bad field is a
 * {@link BadField}, answered 400), {@code toJson()} writes it for the bus. A focus and a path travel as their
 * canonical text and are parsed once, by {@code from}.
 */
public final class DaemonRequests {
  private DaemonRequests() {}

  /** {@code resources}: the resource at {@code path} (null: every root) and its descendants to {@code depth} (-1: all). */
  public record Resources(ResourcePath path, int depth) {
    public static Resources from(Object body) {
      Fields f = Fields.of(body);
      String p = f.text("path");
      return new Resources(p == null || p.isBlank() || p.trim().equals("/") ? null : f.path("path"),
          f.integer("depth", 1));
    }

    /** The path's text, {@code /} for every root. */
    public String pathText() {
      return path == null ? "/" : path.toString();
    }

    public JsonObject toJson() {
      return new JsonObject().put("path", pathText()).put("depth", depth);
    }
  }

  /**
   * {@code codepath}: the {@code /Code} path of a place in the code written as Java writes it ({@code
   * com.acme.Cache::get}, {@code com.acme.Cache.get(Object)}, a class, a package).
   */
  public record CodePath(String name) {
    public static CodePath from(Object body) {
      String name = Fields.of(body).text("name");
      if (name == null || name.isBlank()) {
        throw new BadField("name", "codepath needs 'name', a Java name such as com.acme.Cache::get");
      }
      return new CodePath(name);
    }

    public JsonObject toJson() {
      return put(new JsonObject(), "name", name);
    }
  }

  /** {@code enable}: a probe of {@code kind} into the method {@code focus} names; {@code callee} only for call_site. */
  public record EnableProbe(Focus focus, String kind, String callee, String requester) {
    public static EnableProbe from(Object body) {
      Fields f = Fields.of(body);
      String field = f.has("focus") ? "focus" : "method";
      Focus focus = f.focus(field);
      String kind = f.text("kind");
      if (focus == null || kind == null) {
        throw new BadField(focus == null ? "focus" : "kind", "enable needs 'focus' (or 'method') and 'kind'");
      }
      return new EnableProbe(focus, kind, f.text("callee"), f.text("requester"));
    }

    public JsonObject toJson() {
      return put(new JsonObject().put("focus", focus.toString()).put("kind", kind), "callee", callee, "requester",
          requester);
    }
  }

  /** {@code disable}: remove a probe. */
  public record DisableProbe(long probeId) {
    public static DisableProbe from(Object body) {
      return new DisableProbe(Fields.of(body).requiredWholeNumber("probeId"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("probeId", probeId);
    }
  }

  /** {@code watch}: start counting a source, {@code {"event","code","thread","form"}}. */
  public record Watch(Map<String, Object> source, String requester) {
    public static Watch from(Object body) {
      Fields f = Fields.of(body);
      Map<String, Object> source;
      try {
        source = f.object("source");
      } catch (BadField e) {
        source = null;
      }
      if (source == null) {
        Object given = body instanceof JsonObject j ? j.getValue("source") : null;
        throw new BadField("source", "watch needs 'source', an object {\"event\":…, \"code\":…, \"thread\":…,"
            + " \"form\":…}" + (given == null ? "" : ", not " + given));
      }
      return new Watch(source, f.text("requester"));
    }

    public JsonObject toJson() {
      return put(new JsonObject().put("source", new JsonObject(source)), "requester", requester);
    }
  }

  /** {@code unwatch}: stop counting a source. */
  public record Unwatch(long sourceId) {
    public static Unwatch from(Object body) {
      return new Unwatch(Fields.of(body).requiredWholeNumber("sourceId"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("sourceId", sourceId);
    }
  }

  /**
   * {@code metric.enable}: measure {@code metric} at {@code focus}; {@code samplePeriodMillis} the JFR
   * sampling period its CPU sources ask for (null: the agent's own).
   */
  public record MetricEnable(String metric, Focus focus, String requester, Long samplePeriodMillis) {
    public static MetricEnable from(Object body) {
      Fields f = Fields.of(body);
      return new MetricEnable(f.text("metric"), f.focus("focus"), f.text("requester"),
          f.wholeNumber("samplePeriodMillis"));
    }

    public JsonObject toJson() {
      return put(new JsonObject().put("metric", metric), "focus", focus == null ? null : focus.toString(),
          "requester", requester, "samplePeriodMillis", samplePeriodMillis);
    }
  }

  /** {@code metric.plan}: what measuring {@code metric} at {@code focus} would insert, and its predicted cost. */
  public record MetricPlan(String metric, Focus focus) {
    public static MetricPlan from(Object body) {
      Fields f = Fields.of(body);
      return new MetricPlan(f.text("metric"), f.focus("focus"));
    }

    public JsonObject toJson() {
      return put(new JsonObject().put("metric", metric), "focus", focus == null ? null : focus.toString());
    }
  }

  /** {@code metric.disable}: stop a metric, removing exactly its probes and sources. */
  public record MetricDisable(long metricId) {
    public static MetricDisable from(Object body) {
      return new MetricDisable(Fields.of(body).requiredWholeNumber("metricId"));
    }

    public JsonObject toJson() {
      return new JsonObject().put("metricId", metricId);
    }
  }

  /** {@code metrics.add}: a metric file added to the running daemon. */
  public record MetricsAdd(String fileName, String text) {
    public static MetricsAdd from(Object body) {
      Fields f = Fields.of(body);
      return new MetricsAdd(f.text("fileName"), f.text("text"));
    }

    public JsonObject toJson() {
      return put(new JsonObject(), "fileName", fileName, "text", text);
    }
  }

  /** {@code hold}: the sending member holds the daemon ({@code true}, the default) or lets go of it. */
  public record Hold(boolean hold) {
    public static Hold from(Object body) {
      return new Hold(Fields.of(body).bool("hold", true));
    }

    public JsonObject toJson() {
      return new JsonObject().put("hold", hold);
    }
  }

  /** {@code interval}: set the sampling interval to {@code millis} (null: only read it). */
  public record Interval(Long millis) {
    public static Interval from(Object body) {
      return new Interval(Fields.of(body).wholeNumber("millis"));
    }

    public JsonObject toJson() {
      return put(new JsonObject(), "millis", millis);
    }
  }

  /** {@code values.history}: the last {@code last} samples. */
  public record ValuesHistory(int last) {
    public static final int DEFAULT_LAST = 60;

    public static ValuesHistory from(Object body) {
      return new ValuesHistory(Fields.of(body).integer("last", DEFAULT_LAST));
    }

    public JsonObject toJson() {
      return new JsonObject().put("last", last);
    }
  }

  /** {@code classBytes}: length and SHA-256 of a class's current bytes. */
  public record ClassBytes(String className) {
    public static ClassBytes from(Object body) {
      return new ClassBytes(Fields.of(body).text("className"));
    }

    public JsonObject toJson() {
      return put(new JsonObject(), "className", className);
    }
  }

  /**
   * {@code callgraph}: one of the daemon's graphs ({@link Stacks#GRAPHS}) at a /Code path; only the {@code parts}
   * asked for are worked out and sent (all of them when absent), so that a caller listing children does not pay for
   * the hot methods and the callers and callees within inlining reach, which take a walk over the whole graph each.
   */
  public record CallGraph(ResourcePath path, int limit, String graph, Set<Part> parts) {
    public static final int DEFAULT_LIMIT = 100;
    public static final String DEFAULT_GRAPH = "cpu";

    /** What of the graph at the path to give: the lists of the reply by their names there. */
    public enum Part {
      /** {@code children}: its packages, classes or methods, or a method's callees. */
      CHILDREN("children"),
      /** {@code hot}: the methods under it most often on top of the stack. */
      HOT("hot"),
      /** {@code hotOwn}: the methods under it most often the topmost of the program's own code. */
      HOT_OWN("hotOwn"),
      /** {@code callers} and {@code callees}: the methods within inlining reach. */
      REACH("reach");

      private final String word;

      Part(String word) {
        this.word = word;
      }

      public String word() {
        return word;
      }

      static Part of(String word) {
        for (Part p : values()) {
          if (p.word.equals(word)) {
            return p;
          }
        }
        return null;
      }
    }

    public CallGraph {
      parts = Set.copyOf(parts);
    }

    /** Every part. */
    public CallGraph(ResourcePath path, int limit, String graph) {
      this(path, limit, graph, EnumSet.allOf(Part.class));
    }

    public static CallGraph from(Object body) {
      Fields f = Fields.of(body);
      Set<Part> parts = EnumSet.noneOf(Part.class);
      if (f.has("parts")) {
        List<String> words = f.texts("parts");
        for (int i = 0; i < words.size(); i++) {
          Part p = Part.of(words.get(i));
          if (p == null) {
            throw Fields.wrong(f.name("parts") + "[" + i + "]", "one of " + Arrays.stream(Part.values())
                .map(Part::word).toList(), words.get(i));
          }
          parts.add(p);
        }
      } else {
        parts = EnumSet.allOf(Part.class);
      }
      return new CallGraph(f.path("path"), f.integer("limit", DEFAULT_LIMIT), f.text("graph", DEFAULT_GRAPH), parts);
    }

    public JsonObject toJson() {
      JsonObject j = put(new JsonObject().put("limit", limit).put("graph", graph), "path", path == null ? null
          : path.toString());
      if (parts.size() < Part.values().length) {
        j.put("parts", new JsonArray(Arrays.stream(Part.values()).filter(parts::contains).map(Part::word).toList()));
      }
      return j;
    }
  }

  /** {@code stacks}: one of the daemon's graphs' sampled stacks as a tree, its {@code max} nodes with the most samples. */
  public record Stacks(String graph, int max) {
    public static final int DEFAULT_MAX = 1000;
    /** The graphs a daemon keeps stacks of, each with what its samples count, in the order a page lists them. */
    public static final Map<String, String> GRAPHS = graphs();
    /** The graphs a search keeps as it ends, for its flame graphs and exports (jit and load have no stacks). */
    public static final List<String> KEPT = List.of("cpu", "wait", "sync", "io", "alloc");
    /**
     * The graph whose counts are milliseconds waited rather than events or samples: a thread's time off the CPU
     * weighs as long as it lasted, as a wall-clock profile weighs it.
     */
    public static final String WAIT = "wait";

    private static Map<String, String> graphs() {
      Map<String, String> g = new LinkedHashMap<>();
      g.put("cpu", "on the CPU (execution samples)");
      g.put(WAIT, "waiting: sleeping, in Object.wait, parked, blocked on a monitor or in slow I/O (milliseconds waited,"
          + " each wait from its recording threshold)");
      g.put("sync", "blocked on a contended lock");
      g.put("io", "blocked in slow file and socket I/O");
      g.put("jit", "compiled by the JIT");
      g.put("alloc", "allocating (JFR's allocation samples)");
      g.put("load", "defining classes (by the loader's code, or the class's own for the JDK's loaders)");
      return Collections.unmodifiableMap(g);
    }

    public static Stacks from(Object body) {
      Fields f = Fields.of(body);
      return new Stacks(f.text("graph", CallGraph.DEFAULT_GRAPH), f.integer("max", DEFAULT_MAX));
    }

    public JsonObject toJson() {
      return new JsonObject().put("graph", graph).put("max", max);
    }
  }

  /**
   * {@code holders}: look {@code looks} times, {@code intervalMillis} apart, at which threads wait for a lock another
   * holds and what the holder does (at most 20 looks, 100 ms apart).
   */
  public record Holders(int looks, long intervalMillis) {
    public static final int DEFAULT_LOOKS = 8;
    public static final long DEFAULT_INTERVAL_MILLIS = 60;

    public static Holders from(Object body) {
      Fields f = Fields.of(body);
      // the ranges are the agent's request's (agent.wire.Holders), which the daemon's session refuses with a 400
      return new Holders(f.integer("looks", DEFAULT_LOOKS), f.wholeNumber("intervalMillis", DEFAULT_INTERVAL_MILLIS));
    }

    public JsonObject toJson() {
      return new JsonObject().put("looks", looks).put("intervalMillis", intervalMillis);
    }
  }

  /**
   * {@code recording}: the target's JFR recording as a file's bytes, refused when it is larger than {@code maxBytes}
   * (1 byte..{@link #MAX_BYTES}).
   */
  public record Recording(long maxBytes) {
    /**
     * The most a daemon sends: the agent's recording keeps 64 MB, which JFR holds to a whole chunk at a time (a
     * chunk is 12 MB at most), so a dump may be that much over.
     */
    public static final long MAX_BYTES = 80L * 1024 * 1024;

    public static Recording from(Object body) {
      Fields f = Fields.of(body);
      long max = f.wholeNumber("maxBytes", MAX_BYTES);
      if (max < 1 || max > MAX_BYTES) {
        throw Fields.wrong("maxBytes", "1.." + MAX_BYTES, max);
      }
      return new Recording(max);
    }

    public JsonObject toJson() {
      return new JsonObject().put("maxBytes", maxBytes);
    }
  }

  /** Puts each non-null value of the (field, value) pairs. */
  private static JsonObject put(JsonObject o, Object... pairs) {
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i + 1] != null) {
        o.put((String) pairs[i], pairs[i + 1]);
      }
    }
    return o;
  }
}
