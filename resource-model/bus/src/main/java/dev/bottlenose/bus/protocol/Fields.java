package dev.bottlenose.bus.protocol;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one typed reader of message bodies: each read names the field, and a wrong value fails with a
 * {@link BadField} that names the field and the value ({@code 'metricId' must be a whole number, not "x"}).
 * A null body reads as an empty one.
 */
public final class Fields {
  private final JsonObject body;
  /** What names this body's fields in an error: empty for a message, {@code metrics[2].} for a nested object. */
  private final String prefix;

  private Fields(JsonObject body, String prefix) {
    this.body = body == null ? new JsonObject() : body;
    this.prefix = prefix;
  }

  /** Reads {@code body}: a {@link JsonObject}, or anything else (null included) as an empty object. */
  public static Fields of(Object body) {
    return new Fields(body instanceof JsonObject j ? j : null, "");
  }

  /** The body read, as given (an empty object for a null one). */
  public JsonObject body() {
    return body;
  }

  public boolean has(String field) {
    return body.getValue(field) != null;
  }

  /** Text, or null when absent. */
  public String text(String field) {
    Object v = body.getValue(field);
    if (v == null || v instanceof String) {
      return (String) v;
    }
    throw wrong(name(field), "text", v);
  }

  public String text(String field, String absent) {
    String v = text(field);
    return v == null ? absent : v;
  }

  /** A whole number, or null when absent. */
  public Long wholeNumber(String field) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    if (v instanceof Number n && !(n instanceof Double d && (d.isNaN() || d.isInfinite()))
        && n.doubleValue() == n.longValue()) {
      return n.longValue();
    }
    throw wrong(name(field), "a whole number", v);
  }

  public long requiredWholeNumber(String field) {
    Long v = wholeNumber(field);
    if (v == null) {
      throw missing(name(field), "a whole number");
    }
    return v;
  }

  public int integer(String field, int absent) {
    Long v = wholeNumber(field);
    if (v == null) {
      return absent;
    }
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw wrong(name(field), "a whole number between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE, v);
    }
    return v.intValue();
  }

  public boolean bool(String field, boolean absent) {
    Object v = body.getValue(field);
    if (v == null) {
      return absent;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    throw wrong(name(field), "true or false", v);
  }

  /** An object, or null when absent. */
  public Map<String, Object> object(String field) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    if (v instanceof JsonObject j) {
      return j.getMap();
    }
    throw wrong(name(field), "an object", v);
  }

  /** A focus ({@code </Code/p/C, /Threads/main>}, {@code <>} or a bare path), parsed here once; null when absent. */
  public Focus focus(String field) {
    String v = text(field);
    if (v == null) {
      return null;
    }
    try {
      return Focus.parse(v);
    } catch (IllegalArgumentException e) {
      throw new BadField(name(field), "'" + name(field) + "' must be a focus such as </Code/com.acme/Cache> or <>, not "
          + quoted(v) + ": " + e.getMessage());
    }
  }

  /** A resource path ({@code /Code/p/C}), parsed here once; null when absent. */
  public ResourcePath path(String field) {
    String v = text(field);
    if (v == null) {
      return null;
    }
    try {
      return ResourcePath.parse(v.trim());
    } catch (IllegalArgumentException e) {
      throw new BadField(name(field), "'" + name(field) + "' must be a resource path such as /Code/com.acme/Cache, not "
          + quoted(v) + ": " + e.getMessage());
    }
  }

  /** Text that must be there. */
  public String requiredText(String field) {
    String v = text(field);
    if (v == null) {
      throw missing(name(field), "text");
    }
    return v;
  }

  public long wholeNumber(String field, long absent) {
    Long v = wholeNumber(field);
    return v == null ? absent : v;
  }

  /** A number, whole or not, or null when absent (or written as null, as a value that is not finite is). */
  public Double decimal(String field) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    throw wrong(name(field), "a number", v);
  }

  public double decimal(String field, double absent) {
    Double v = decimal(field);
    return v == null ? absent : v;
  }

  /** An object kept as it is (a part of a message another component defines), or null when absent. */
  public JsonObject json(String field) {
    Object v = body.getValue(field);
    if (v == null || v instanceof JsonObject) {
      return (JsonObject) v;
    }
    throw wrong(name(field), "an object", v);
  }

  /** The raw array at {@code field}: empty when absent. */
  private JsonArray array(String field) {
    Object v = body.getValue(field);
    if (v == null) {
      return new JsonArray();
    }
    if (v instanceof JsonArray a) {
      return a;
    }
    throw wrong(name(field), "an array", v);
  }

  /** An array of objects, each read by its own {@code Fields} that names it ({@code metrics[2].value}); empty when absent. */
  public List<Fields> objects(String field) {
    JsonArray a = array(field);
    List<Fields> out = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      Object o = a.getValue(i);
      String at = name(field) + "[" + i + "]";
      if (!(o instanceof JsonObject j)) {
        throw wrong(at, "an object", o);
      }
      out.add(new Fields(j, at + "."));
    }
    return out;
  }

  /** The object at {@code field} read by its own {@code Fields} naming it ({@code cost.probeNanos}); null when absent. */
  public Fields nested(String field) {
    JsonObject j = json(field);
    return j == null ? null : new Fields(j, name(field) + ".");
  }

  /** An array of text; empty when absent. */
  public List<String> texts(String field) {
    JsonArray a = array(field);
    List<String> out = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      if (!(a.getValue(i) instanceof String s)) {
        throw wrong(name(field) + "[" + i + "]", "text", a.getValue(i));
      }
      out.add(s);
    }
    return out;
  }

  /** An object's fields, each a whole number (the sample's VM counters); empty when absent. */
  public Map<String, Long> wholeNumbers(String field) {
    Fields f = nested(field);
    Map<String, Long> out = new java.util.LinkedHashMap<>();
    if (f != null) {
      for (String k : f.body.fieldNames()) {
        out.put(k, f.requiredWholeNumber(k));
      }
    }
    return out;
  }

  /** The field as an error names it: with the path of the object it is in. */
  public String name(String field) {
    return prefix + field;
  }

  /** {@code 'field' must be WHAT, not VALUE}. */
  public static BadField wrong(String field, String what, Object value) {
    return new BadField(field, "'" + field + "' must be " + what + ", not " + quoted(value));
  }

  public static BadField missing(String field, String what) {
    return new BadField(field, "'" + field + "' is missing: it must be " + what);
  }

  private static String quoted(Object value) {
    return value instanceof String s ? Json.encode(s) : String.valueOf(value);
  }
}
