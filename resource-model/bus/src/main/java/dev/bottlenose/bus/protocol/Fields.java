package dev.bottlenose.bus.protocol;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * The one typed reader of message bodies: each read names the field, and a wrong value fails with a
 * {@link BadField} that names the field and the value ({@code 'metricId' must be a whole number, not "x"}).
 * A null body reads as an empty one.
 */
public final class Fields {
  private final JsonObject body;

  private Fields(JsonObject body) {
    this.body = body == null ? new JsonObject() : body;
  }

  /** Reads {@code body}: a {@link JsonObject}, or anything else (null included) as an empty object. */
  public static Fields of(Object body) {
    return new Fields(body instanceof JsonObject j ? j : null);
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
    throw wrong(field, "text", v);
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
    throw wrong(field, "a whole number", v);
  }

  public long requiredWholeNumber(String field) {
    Long v = wholeNumber(field);
    if (v == null) {
      throw missing(field, "a whole number");
    }
    return v;
  }

  public int integer(String field, int absent) {
    Long v = wholeNumber(field);
    if (v == null) {
      return absent;
    }
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw wrong(field, "a whole number between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE, v);
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
    throw wrong(field, "true or false", v);
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
    throw wrong(field, "an object", v);
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
      throw new BadField(field, "'" + field + "' must be a focus such as </Code/com.acme/Cache> or <>, not "
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
      throw new BadField(field, "'" + field + "' must be a resource path such as /Code/com.acme/Cache, not "
          + quoted(v) + ": " + e.getMessage());
    }
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
