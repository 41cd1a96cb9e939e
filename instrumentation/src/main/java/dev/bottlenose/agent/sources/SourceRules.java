package dev.bottlenose.agent.sources;

import dev.bottlenose.agent.wire.SourceSpec;
import dev.bottlenose.agent.wire.WireException;
import dev.bottlenose.model.Constraint;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.PathSyntaxException;
import dev.bottlenose.model.ResourcePath;
import java.util.Map;

/**
 * Checks what a watched source's event and filters may be together ({@link SourceSpec} has read each field's shape)
 * and builds the {@link WatchedSource}; every refusal is a {@link WireException} naming the field and its value.
 */
public final class SourceRules {
  /** JFR's type of a frame the interpreter runs. */
  static final String INTERPRETED_FRAME = "Interpreted";
  private static final Map<String, String> FORMS = Map.of("interpreted", INTERPRETED_FRAME, "compiled", "JIT compiled",
      "inlined", "Inlined", "native", "Native");

  /** Reads {@code value} as a source ({@link SourceSpec#fromMap}) and checks it. */
  public static WatchedSource parse(Object value, long id, String owner) {
    return parse(SourceSpec.fromMap(value), id, owner);
  }

  /** Checks a source and builds what counts it for {@code owner} under {@code id}. */
  public static WatchedSource parse(SourceSpec spec, long id, String owner) {
    SourceEvent event = SourceEvent.byWord(spec.event());
    if (event == null) {
      throw new WireException("event", spec.event(), "unknown event '" + spec.event() + "' in source (known: "
          + SourceEvent.words() + ")");
    }
    CodeFilter code = spec.code() != null ? code(event, spec.code()) : null;
    ThreadFilter thread = spec.thread() != null ? thread(event, spec.thread()) : null;
    String form = spec.form() != null ? form(event, spec.form()) : null;
    String type = spec.type() != null ? type(event, spec.type()) : null;
    ResourceFilter resource = spec.resource() != null ? resource(event, spec.resource()) : null;
    if (spec.periodMillis() != null && event != SourceEvent.CPU_SAMPLE && event != SourceEvent.ALLOC_SAMPLE) {
      throw new WireException("period", spec.periodMillis(), "period: only cpu_sample and alloc_sample sources take a"
          + " sampling period, " + event.word() + " does not");
    }
    return new WatchedSource(id, owner, event, code, thread, form, type, resource, spec);
  }

  private static CodeFilter code(SourceEvent event, String text) {
    if (event.code == SourceEvent.Code.NONE) {
      throw bad("code", text, "code: " + event.word() + " events carry no stack trace and no method, so they"
          + " cannot be filtered by code (leave code out)");
    }
    Constraint c;
    try {
      c = Constraint.parse(text);
    } catch (PathSyntaxException e) {
      throw bad("code", text, "code '" + text + "' is not a constraint: " + e.getMessage());
    }
    ResourcePath p = c.path();
    if (p.hierarchy() != Hierarchy.CODE || p.depth() < 1 || p.depth() > 3) {
      throw bad("code", text, "code '" + text + "' must name a /Code package, class or method (a form is"
          + " given with \"form\")");
    }
    if (event.code == SourceEvent.Code.LOADER && (c.mode() == ConstraintMode.CALLER || p.depth() > 2)) {
      throw bad("code", text, "code: " + event.word() + " charges each class defined to a class (its loader's, or"
          + " its own for the JDK's loaders): name a /Code package or class, exclusive: or inclusive:");
    }
    if (event.code == SourceEvent.Code.METHOD && c.mode() == ConstraintMode.CALLER) {
      throw bad("code", text, "code: " + event.word() + " matches the compiled method itself; use"
          + " exclusive: or inclusive:, not caller:");
    }
    return new CodeFilter(c.mode(), p);
  }

  private static ThreadFilter thread(SourceEvent event, String text) {
    if (event.threadField == null) {
      throw bad("thread", text, "thread: " + event.word() + " events belong to no application thread (leave"
          + " thread out)");
    }
    ResourcePath p;
    try {
      p = ResourcePath.parse(text);
    } catch (PathSyntaxException e) {
      throw bad("thread", text, "thread '" + text + "' is not a path: " + e.getMessage());
    }
    if (p.hierarchy() != Hierarchy.THREADS || p.depth() < 1 || p.depth() > 2) {
      throw bad("thread", text, "thread '" + text + "' must be /Threads/<pool> or /Threads/<pool>/<thread>");
    }
    return new ThreadFilter(p.segments().get(0), p.depth() == 2 ? p.segments().get(1) : null);
  }

  private static ResourceFilter resource(SourceEvent event, String text) {
    Hierarchy h = ResourceFilter.hierarchyOf(event);
    if (h == null) {
      throw bad("resource", text, "resource: " + event.word() + " events are about no /SyncObjects or /IO"
          + " resource (leave resource out)");
    }
    ResourcePath p;
    try {
      p = ResourcePath.parse(text);
    } catch (PathSyntaxException e) {
      throw bad("resource", text, "resource '" + text + "' is not a path: " + e.getMessage());
    }
    boolean sync = h == Hierarchy.SYNC_OBJECTS;
    if (p.hierarchy() != h || p.depth() < 1 || p.depth() > 2) {
      throw bad("resource", text, "resource '" + text + "' must be " + (sync
          ? "/SyncObjects/monitors[/<class>] or /SyncObjects/locks[/<class>] (JFR names the class, not the instance)"
          : "/IO/file[/<path>] or /IO/socket[/<host:port>]") + " for " + event.word() + " events");
    }
    String group = p.segments().get(0);
    boolean known = sync ? group.equals("monitors") || group.equals("locks") : group.equals("file") || group.equals("socket");
    if (!known) {
      throw bad("resource", text, "resource '" + text + "': unknown group '" + group + "' (known: "
          + (sync ? "monitors, locks" : "file, socket") + ")");
    }
    return new ResourceFilter(p);
  }

  private static String form(SourceEvent event, String word) {
    if (event != SourceEvent.CPU_SAMPLE) {
      throw bad("form", word, "form: only cpu_sample sources take a form, " + event.word() + " does not");
    }
    String type = FORMS.get(word);
    if (type == null) {
      throw bad("form", word, "unknown form '" + word + "' (known: interpreted, compiled, inlined, native)");
    }
    return type;
  }

  /** An allocated type as {@code /Memory} names it ({@code int[]}, {@code com.acme.Point}). */
  private static String type(SourceEvent event, String name) {
    if (event != SourceEvent.ALLOC_SAMPLE) {
      throw bad("type", name, "type: only alloc_sample sources take an allocated type, " + event.word() + " does not");
    }
    if (name.isBlank() || name.contains("/")) {
      throw bad("type", name, "type '" + name + "' must be an allocated type as /Memory names it, such as int[]"
          + " or com.acme.Point");
    }
    return name;
  }

  private static WireException bad(String field, String value, String message) {
    return new WireException(field, value, message);
  }

  private SourceRules() {}
}
