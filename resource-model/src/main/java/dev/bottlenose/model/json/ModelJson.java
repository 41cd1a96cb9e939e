package dev.bottlenose.model.json;

import dev.bottlenose.model.Constraint;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.MetricFocus;
import dev.bottlenose.model.PathSyntaxException;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourceChange;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON forms of the model, as values of {@link Json}: a path is its canonical text; a
 * constraint {@code {"path","mode"}}; a focus an array of its non-root paths; a metric-focus pair
 * {@code {"metric","focus"}}; a resource {@code {"path","kind","attributes"}}; a change {@code
 * {"change","resource"}}. Readers throw {@link JsonException} naming the field that is wrong; fields
 * they do not know are ignored.
 */
public final class ModelJson {

  public static String toJson(ResourcePath path) {
    return path.toString();
  }

  public static Map<String, Object> toJson(Constraint c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", toJson(c.path()));
    m.put("mode", c.mode().word());
    return m;
  }

  public static List<Object> toJson(Focus focus) {
    List<Object> list = new ArrayList<>(focus.constrained().size());
    for (ResourcePath p : focus.constrained().values()) {
      list.add(toJson(p));
    }
    return list;
  }

  public static Map<String, Object> toJson(MetricFocus mf) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metric", mf.metric());
    m.put("focus", toJson(mf.focus()));
    return m;
  }

  /** Attributes are written sorted by name. */
  public static Map<String, Object> toJson(Resource r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", toJson(r.path()));
    m.put("kind", r.kind());
    m.put("attributes", new TreeMap<>(r.attributes()));
    return m;
  }

  public static Map<String, Object> toJson(ResourceChange c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("change", c.type().name().toLowerCase(java.util.Locale.ROOT));
    m.put("resource", toJson(c.resource()));
    return m;
  }

  public static ResourcePath readPath(Object json) {
    return path(json, "path");
  }

  public static Constraint readConstraint(Object json) {
    Map<String, Object> m = object(json, "constraint");
    String mode = string(m.get("mode"), "mode");
    for (ConstraintMode cm : ConstraintMode.values()) {
      if (cm.word().equals(mode)) {
        return new Constraint(path(m.get("path"), "path"), cm);
      }
    }
    throw new JsonException("field 'mode': unknown constraint mode '" + mode + "'; expected exclusive, inclusive or caller", -1);
  }

  /** Roots in the array mean unconstrained; two paths in one hierarchy are an error. */
  public static Focus readFocus(Object json) {
    return focus(json, "focus");
  }

  public static MetricFocus readMetricFocus(Object json) {
    Map<String, Object> m = object(json, "metric-focus pair");
    String metric = string(m.get("metric"), "metric");
    Focus focus = focus(m.get("focus"), "focus");
    try {
      return new MetricFocus(metric, focus);
    } catch (IllegalArgumentException e) {
      throw new JsonException("field 'metric': " + e.getMessage(), -1);
    }
  }

  /** A missing {@code attributes} field means none. */
  public static Resource readResource(Object json) {
    Map<String, Object> m = object(json, "resource");
    ResourcePath path = path(m.get("path"), "path");
    String kind = string(m.get("kind"), "kind");
    Map<String, String> attributes = new LinkedHashMap<>();
    Object a = m.get("attributes");
    if (a != null) {
      for (Map.Entry<String, Object> e : object(a, "attributes").entrySet()) {
        attributes.put(e.getKey(), string(e.getValue(), "attributes." + e.getKey()));
      }
    }
    return new Resource(path, kind, attributes);
  }

  public static ResourceChange readChange(Object json) {
    Map<String, Object> m = object(json, "resource change");
    String change = string(m.get("change"), "change");
    for (ResourceChange.Type t : ResourceChange.Type.values()) {
      if (t.name().toLowerCase(java.util.Locale.ROOT).equals(change)) {
        return new ResourceChange(t, readResource(m.get("resource")));
      }
    }
    throw new JsonException("field 'change': unknown change '" + change + "'; expected added, updated or removed", -1);
  }

  private static Focus focus(Object json, String field) {
    if (!(json instanceof List<?> list)) {
      throw new JsonException("field '" + field + "': expected an array of resource paths but found " + describe(json), -1);
    }
    Focus focus = Focus.WHOLE_PROGRAM;
    List<ResourcePath> seen = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ResourcePath p = path(list.get(i), field + "[" + i + "]");
      for (ResourcePath s : seen) {
        if (s.hierarchy() == p.hierarchy()) {
          throw new JsonException("field '" + field + "[" + i + "]': second path in " + p.hierarchy().root() + " after " + s, -1);
        }
      }
      seen.add(p);
      focus = focus.with(p);
    }
    return focus;
  }

  private static ResourcePath path(Object json, String field) {
    String text = string(json, field);
    try {
      return ResourcePath.parse(text);
    } catch (PathSyntaxException e) {
      throw new JsonException("field '" + field + "': " + e.getMessage(), -1);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object json, String field) {
    if (json instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    throw new JsonException("expected a JSON object for the " + field + " but found " + describe(json), -1);
  }

  private static String string(Object json, String field) {
    if (json instanceof String s) {
      return s;
    }
    throw new JsonException("field '" + field + "': expected a string but found " + describe(json), -1);
  }

  private static String describe(Object json) {
    if (json == null) {
      return "nothing (null or missing)";
    }
    if (json instanceof Map) {
      return "an object";
    }
    return json instanceof List ? "an array" : json.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + " " + json;
  }

  private ModelJson() {}
}
