package dev.bottlenose.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a metric's value is computed from one interval: the deltas of the plan's items (count, nanos,
 * bytes), the interval's length in seconds, calibration constants and numbers. Division by zero gives 0
 * (an interval in which the denominator did not happen contributes nothing).
 */
sealed interface Formula {

  double eval(Evaluator.Interval in);

  Map<String, Object> toJson();

  /** Readable text, e.g. {@code (s0.nanos * 1e-9) / interval_s}. */
  String text();

  static Formula parse(Object json) {
    if (!(json instanceof Map<?, ?> m)) {
      throw new MetricException("a formula is a JSON object, not " + json);
    }
    if (m.containsKey("op")) {
      return new Op(String.valueOf(m.get("op")).charAt(0), parse(m.get("left")), parse(m.get("right")));
    }
    if (m.containsKey("item")) {
      return new Item(String.valueOf(m.get("item")), String.valueOf(m.get("measure")));
    }
    if (m.get("const") instanceof Number n) {
      return new Const(n.doubleValue());
    }
    if (m.containsKey("calibration")) {
      return new Cal(String.valueOf(m.get("calibration")));
    }
    if (m.containsKey("interval")) {
      return new Interval();
    }
    throw new MetricException("not a formula: " + json);
  }

  static Formula op(char op, Formula left, Formula right) {
    return new Op(op, left, right);
  }

  record Item(String id, String measure) implements Formula {
    @Override
    public double eval(Evaluator.Interval in) {
      return in.delta(id, measure);
    }

    @Override
    public Map<String, Object> toJson() {
      return json("item", id, "measure", measure);
    }

    @Override
    public String text() {
      return id + "." + measure;
    }
  }

  record Const(double value) implements Formula {
    @Override
    public double eval(Evaluator.Interval in) {
      return value;
    }

    @Override
    public Map<String, Object> toJson() {
      return json("const", value);
    }

    @Override
    public String text() {
      return value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value) : String.valueOf(value);
    }
  }

  /** The interval's length in seconds. */
  record Interval() implements Formula {
    @Override
    public double eval(Evaluator.Interval in) {
      return in.seconds();
    }

    @Override
    public Map<String, Object> toJson() {
      return json("interval", "seconds");
    }

    @Override
    public String text() {
      return "interval_s";
    }
  }

  /** A calibration constant in seconds (the hello gives nanoseconds), or in bytes for {@code allocation_size}. */
  record Cal(String key) implements Formula {
    @Override
    public double eval(Evaluator.Interval in) {
      return in.calibration().value(key);
    }

    @Override
    public Map<String, Object> toJson() {
      return json("calibration", key);
    }

    @Override
    public String text() {
      return "calibration." + key + (key.equals(Calibration.ALLOCATION_BYTES) ? "" : "_s");
    }
  }

  record Op(char op, Formula left, Formula right) implements Formula {
    @Override
    public double eval(Evaluator.Interval in) {
      double l = left.eval(in);
      double r = right.eval(in);
      switch (op) {
        case '+':
          return l + r;
        case '-':
          return l - r;
        case '*':
          return l * r;
        default:
          return r == 0 ? 0 : l / r;
      }
    }

    @Override
    public Map<String, Object> toJson() {
      return json("op", String.valueOf(op), "left", left.toJson(), "right", right.toJson());
    }

    @Override
    public String text() {
      return "(" + left.text() + " " + op + " " + right.text() + ")";
    }
  }

  private static Map<String, Object> json(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
