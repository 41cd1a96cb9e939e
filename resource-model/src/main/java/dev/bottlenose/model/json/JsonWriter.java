package dev.bottlenose.model.json;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Writes JSON text into a {@link StringBuilder}; strings come out as plain ASCII-safe JSON. */
final class JsonWriter {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final StringBuilder out;
  private int depth;

  JsonWriter(StringBuilder out) {
    this.out = out;
  }

  void value(Object v) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof CharSequence || v instanceof Character || v instanceof Enum) {
      string(v instanceof Enum<?> e ? e.name() : v.toString());
    } else if (v instanceof Number n) {
      number(n);
    } else if (v instanceof Boolean b) {
      out.append(b.booleanValue());
    } else if (v instanceof Map<?, ?> m) {
      object(m);
    } else if (v instanceof Iterable<?> it) {
      array(it);
    } else if (v.getClass().isArray()) {
      array(v);
    } else {
      throw new JsonException("cannot write a " + v.getClass().getName() + " as JSON", -1);
    }
  }

  private void object(Map<?, ?> m) {
    enter();
    out.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (e.getKey() == null) {
        throw new JsonException("cannot write a null map key as JSON", -1);
      }
      out.append(first ? "" : ",");
      first = false;
      string(e.getKey() instanceof Enum<?> k ? k.name() : e.getKey().toString());
      out.append(':');
      value(e.getValue());
    }
    out.append('}');
    depth--;
  }

  private void array(Iterable<?> it) {
    enter();
    out.append('[');
    boolean first = true;
    for (Object o : it) {
      out.append(first ? "" : ",");
      first = false;
      value(o);
    }
    out.append(']');
    depth--;
  }

  private void array(Object array) {
    enter();
    out.append('[');
    int n = Array.getLength(array);
    for (int i = 0; i < n; i++) {
      out.append(i == 0 ? "" : ",");
      value(Array.get(array, i));
    }
    out.append(']');
    depth--;
  }

  private void enter() {
    if (++depth > JsonReader.MAX_DEPTH) {
      throw new JsonException("cannot write JSON nested deeper than " + JsonReader.MAX_DEPTH + " levels (a cycle?)", -1);
    }
  }

  private void number(Number n) {
    if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte
        || n instanceof AtomicLong || n instanceof AtomicInteger) {
      out.append(n.longValue());
    } else if (n instanceof BigInteger || n instanceof BigDecimal) {
      out.append(n.toString());
    } else {
      double d = n.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new JsonException("cannot write " + d + " as JSON (NaN and infinities have no JSON form)", -1);
      }
      out.append(d);
    }
  }

  void string(String s) {
    out.append('"');
    int run = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isSurrogate(c) && isPaired(s, i)) {
        i++;
        continue;
      }
      out.append(s, run, i);
      escape(c);
      run = i + 1;
    }
    out.append(s, run, s.length()).append('"');
  }

  private static boolean isPaired(String s, int i) {
    return Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
  }

  private void escape(char c) {
    switch (c) {
      case '"' -> out.append("\\\"");
      case '\\' -> out.append("\\\\");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case '\b' -> out.append("\\b");
      case '\f' -> out.append("\\f");
      default -> out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
    }
  }
}
