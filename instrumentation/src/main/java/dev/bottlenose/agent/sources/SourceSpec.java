package dev.bottlenose.agent.sources;

import dev.bottlenose.model.Constraint;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.PathSyntaxException;
import dev.bottlenose.model.ResourcePath;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Reads and checks a {@code watch} request's {@code source}; every refusal names the field and the reason. */
public final class SourceSpec {
  private static final Set<String> FIELDS = Set.of("event", "code", "thread", "form", "type", "resource",
      "period");
  /** The sampling periods a {@code cpu_sample} source may ask for, in milliseconds. */
  static final long MIN_PERIOD_MILLIS = 1;
  static final long MAX_PERIOD_MILLIS = 1000;
  private static final Map<String, String> FORMS = Map.of("interpreted", "Interpreted", "compiled", "JIT compiled",
      "inlined", "Inlined", "native", "Native");

  public static WatchedSource parse(Object value, long id, String owner) {
    if (!(value instanceof Map<?, ?> raw)) {
      throw new IllegalArgumentException("source must be an object {\"event\":…, \"code\":…, \"thread\":…,"
          + " \"form\":…}, not " + value);
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : raw.entrySet()) {
      if (!FIELDS.contains(String.valueOf(e.getKey()))) {
        throw new IllegalArgumentException("unknown field '" + e.getKey()
            + "' in source (known: event, code, thread, form, type, resource, period)");
      }
      if ("period".equals(e.getKey()) && e.getValue() != null) {
        spec.put("period", periodMillis(e.getValue()));
      } else if (e.getValue() != null) {
        spec.put(String.valueOf(e.getKey()), text(String.valueOf(e.getKey()), e.getValue()));
      }
    }
    String word = (String) spec.get("event");
    if (word == null) {
      throw new IllegalArgumentException("source needs an event (one of " + SourceEvent.words() + ")");
    }
    SourceEvent event = SourceEvent.byWord(word);
    if (event == null) {
      throw new IllegalArgumentException("unknown event '" + word + "' in source (known: " + SourceEvent.words() + ")");
    }
    CodeFilter code = spec.containsKey("code") ? code(event, (String) spec.get("code")) : null;
    ThreadFilter thread = spec.containsKey("thread") ? thread(event, (String) spec.get("thread")) : null;
    String form = spec.containsKey("form") ? form(event, (String) spec.get("form")) : null;
    String type = spec.containsKey("type") ? type(event, (String) spec.get("type")) : null;
    ResourceFilter resource = spec.containsKey("resource") ? resource(event, (String) spec.get("resource")) : null;
    if (spec.containsKey("period") && event != SourceEvent.CPU_SAMPLE) {
      throw new IllegalArgumentException("period: only cpu_sample sources take a sampling period, " + event.word()
          + " does not");
    }
    return new WatchedSource(id, owner, event, code, thread, form, type, resource, Map.copyOf(spec));
  }

  /** A {@code cpu_sample} source's sampling period: whole milliseconds, {@value #MIN_PERIOD_MILLIS} to {@value #MAX_PERIOD_MILLIS}. */
  private static long periodMillis(Object v) {
    if (!(v instanceof Number n) || n.doubleValue() != n.longValue()) {
      throw new IllegalArgumentException("period must be a whole number of milliseconds, not " + v);
    }
    if (n.longValue() < MIN_PERIOD_MILLIS || n.longValue() > MAX_PERIOD_MILLIS) {
      throw new IllegalArgumentException("period " + n.longValue() + " ms is out of range (" + MIN_PERIOD_MILLIS
          + " to " + MAX_PERIOD_MILLIS + " ms)");
    }
    return n.longValue();
  }

  private static String text(String field, Object v) {
    if (!(v instanceof String s)) {
      throw new IllegalArgumentException(field + " must be a string, not " + v);
    }
    return s;
  }

  private static CodeFilter code(SourceEvent event, String text) {
    if (event.code == SourceEvent.Code.NONE) {
      throw new IllegalArgumentException("code: " + event.word() + " events carry no stack trace and no method, so they"
          + " cannot be filtered by code (leave code out)");
    }
    Constraint c;
    try {
      c = Constraint.parse(text);
    } catch (PathSyntaxException e) {
      throw new IllegalArgumentException("code '" + text + "' is not a constraint: " + e.getMessage());
    }
    ResourcePath p = c.path();
    if (p.hierarchy() != Hierarchy.CODE || p.depth() < 1 || p.depth() > 3) {
      throw new IllegalArgumentException("code '" + text + "' must name a /Code package, class or method (a form is"
          + " given with \"form\")");
    }
    if (event.code == SourceEvent.Code.METHOD && c.mode() == ConstraintMode.CALLER) {
      throw new IllegalArgumentException("code: " + event.word() + " matches the compiled method itself; use"
          + " exclusive: or inclusive:, not caller:");
    }
    return new CodeFilter(c.mode(), p);
  }

  private static ThreadFilter thread(SourceEvent event, String text) {
    if (event.threadField == null) {
      throw new IllegalArgumentException("thread: " + event.word() + " events belong to no application thread (leave"
          + " thread out)");
    }
    ResourcePath p;
    try {
      p = ResourcePath.parse(text);
    } catch (PathSyntaxException e) {
      throw new IllegalArgumentException("thread '" + text + "' is not a path: " + e.getMessage());
    }
    if (p.hierarchy() != Hierarchy.THREADS || p.depth() < 1 || p.depth() > 2) {
      throw new IllegalArgumentException("thread '" + text + "' must be /Threads/<pool> or /Threads/<pool>/<thread>");
    }
    return new ThreadFilter(p.segments().get(0), p.depth() == 2 ? p.segments().get(1) : null);
  }

  private static ResourceFilter resource(SourceEvent event, String text) {
    Hierarchy h = ResourceFilter.hierarchyOf(event);
    if (h == null) {
      throw new IllegalArgumentException("resource: " + event.word() + " events are about no /SyncObjects or /IO"
          + " resource (leave resource out)");
    }
    ResourcePath p;
    try {
      p = ResourcePath.parse(text);
    } catch (PathSyntaxException e) {
      throw new IllegalArgumentException("resource '" + text + "' is not a path: " + e.getMessage());
    }
    boolean sync = h == Hierarchy.SYNC_OBJECTS;
    if (p.hierarchy() != h || p.depth() < 1 || p.depth() > 2) {
      throw new IllegalArgumentException("resource '" + text + "' must be " + (sync
          ? "/SyncObjects/monitors[/<class>] or /SyncObjects/locks[/<class>] (JFR names the class, not the instance)"
          : "/IO/file[/<path>] or /IO/socket[/<host:port>]") + " for " + event.word() + " events");
    }
    String group = p.segments().get(0);
    boolean known = sync ? group.equals("monitors") || group.equals("locks") : group.equals("file") || group.equals("socket");
    if (!known) {
      throw new IllegalArgumentException("resource '" + text + "': unknown group '" + group + "' (known: "
          + (sync ? "monitors, locks" : "file, socket") + ")");
    }
    return new ResourceFilter(p);
  }

  private static String form(SourceEvent event, String word) {
    if (event != SourceEvent.CPU_SAMPLE) {
      throw new IllegalArgumentException("form: only cpu_sample sources take a form, " + event.word() + " does not");
    }
    String type = FORMS.get(word);
    if (type == null) {
      throw new IllegalArgumentException("unknown form '" + word + "' (known: interpreted, compiled, inlined, native)");
    }
    return type;
  }

  /** An allocated type as {@code /Memory} names it ({@code int[]}, {@code com.acme.Point}). */
  private static String type(SourceEvent event, String name) {
    if (event != SourceEvent.ALLOC_SAMPLE) {
      throw new IllegalArgumentException("type: only alloc_sample sources take an allocated type, " + event.word() + " does not");
    }
    if (name.isBlank() || name.contains("/")) {
      throw new IllegalArgumentException("type '" + name + "' must be an allocated type as /Memory names it, such as int[]"
          + " or com.acme.Point");
    }
    return name;
  }

  private SourceSpec() {}
}
