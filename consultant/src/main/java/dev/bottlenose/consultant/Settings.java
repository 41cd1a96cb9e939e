package dev.bottlenose.consultant;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The consultant's settings: thresholds, timing, budget and priorities as key=value text. The defaults
 * come from {@code dev/bottlenose/consultant/thresholds.properties}; {@link #with} layers overrides on
 * top. Immutable.
 */
public final class Settings {
  static final String DEFAULTS = "thresholds.properties";

  private final Map<String, String> values;

  private Settings(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  public static Settings defaults() {
    try (InputStream in = Settings.class.getResourceAsStream(DEFAULTS)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + DEFAULTS + " beside " + Settings.class.getName());
      }
      return new Settings(read(new java.io.InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + DEFAULTS + ": " + e.getMessage(), e);
    }
  }

  /** Reads a properties file (UTF-8) as overrides. */
  public static Map<String, String> readFile(Path file) throws IOException {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(r);
    }
  }

  private static Map<String, String> read(Reader reader) throws IOException {
    Properties p = new Properties();
    p.load(reader);
    Map<String, String> m = new TreeMap<>();
    for (String k : p.stringPropertyNames()) {
      m.put(k, p.getProperty(k).trim());
    }
    return m;
  }

  /**
   * These settings with {@code overrides} on top. Numeric keys already known must stay numbers; an
   * error names the key, the value and {@code source}, and nothing changes.
   */
  public Settings with(Map<String, String> overrides, String source) {
    Map<String, String> m = new TreeMap<>(values);
    for (Map.Entry<String, String> e : overrides.entrySet()) {
      String old = values.get(e.getKey());
      if (old != null && isNumber(old) && !isNumber(e.getValue())) {
        throw new IllegalArgumentException(source + ": " + e.getKey() + " must be a number, is '" + e.getValue() + "'");
      }
      m.put(e.getKey(), e.getValue());
    }
    return new Settings(m);
  }

  public Settings with(String key, String value) {
    return with(Map.of(key, value), "setting");
  }

  /** The number at {@code key}; an error names the key when it is missing or not a number. */
  public double number(String key) {
    String v = values.get(key);
    if (v == null) {
      throw new IllegalArgumentException("missing setting " + key);
    }
    if (!isNumber(v)) {
      throw new IllegalArgumentException("setting " + key + " must be a number, is '" + v + "'");
    }
    return Double.parseDouble(v);
  }

  public double number(String key, double fallback) {
    return values.containsKey(key) ? number(key) : fallback;
  }

  public String text(String key) {
    return values.get(key);
  }

  public long millis(String key) {
    return Math.round(number(key) * 1000);
  }

  /** Every key and value, sorted by key. */
  public Map<String, String> asMap() {
    return values;
  }

  private static boolean isNumber(String s) {
    try {
      double d = Double.parseDouble(s);
      return !Double.isNaN(d) && !Double.isInfinite(d);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Settings s && s.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }
}
