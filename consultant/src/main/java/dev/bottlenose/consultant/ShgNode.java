package dev.bottlenose.consultant;

import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.json.ModelJson;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A node of the search-history graph, as a snapshot: a hypothesis at a focus, its state, the current
 * value against the threshold, when it was tested, its predicted and observed cost (fractions of the
 * target's CPU), why it is in its state, the hierarchy it was refined along (null for why-nodes), and the
 * figures that decided a true or false verdict (null until one, and for verdicts no measurement decided).
 * Values not known yet are NaN (JSON null); times are milliseconds since the epoch, 0 when not yet.
 */
public record ShgNode(
    int id,
    String hypothesis,
    Focus focus,
    NodeState state,
    double value,
    double threshold,
    long testedSinceMillis,
    long concludedAtMillis,
    double predictedCost,
    double observedCost,
    String reason,
    Hierarchy along,
    double priority,
    Decision decision) {

  /**
   * What decided a verdict: the value (the time-weighted average since the node's measurement began counting),
   * the threshold, the bar the value had to reach (the threshold moved by the hysteresis for true, the
   * threshold for false), how long the guess had held, over how many intervals, and whether it was decided
   * early because the values were clear of the bar by several standard errors.
   */
  public record Decision(double value, double threshold, double bar, double heldSeconds, int intervals, boolean clear) {
    Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("value", number(value));
      m.put("threshold", number(threshold));
      m.put("bar", number(bar));
      m.put("heldSeconds", heldSeconds);
      m.put("intervals", intervals);
      m.put("clear", clear);
      return m;
    }

    static Decision fromJson(Object o) {
      if (!(o instanceof Map<?, ?> m)) {
        return null;
      }
      return new Decision(real(m.get("value")), real(m.get("threshold")), real(m.get("bar")),
          ((Number) m.get("heldSeconds")).doubleValue(), ((Number) m.get("intervals")).intValue(), Boolean.TRUE.equals(m.get("clear")));
    }
  }

  ShgNode withState(NodeState s, String why, long atMillis) {
    return withState(s, why, atMillis, s == NodeState.TRUE || s == NodeState.FALSE ? decision : null);
  }

  ShgNode withState(NodeState s, String why, long atMillis, Decision decided) {
    long concluded = s == NodeState.UNTESTED || s == NodeState.TESTING ? 0 : atMillis;
    long since = s == NodeState.TESTING && testedSinceMillis == 0 ? atMillis : testedSinceMillis;
    return new ShgNode(id, hypothesis, focus, s, value, threshold, since, concluded, predictedCost, observedCost, why, along, priority, decided);
  }

  ShgNode withValues(double v, double t, double predicted, double observed) {
    return new ShgNode(id, hypothesis, focus, state, v, t, testedSinceMillis, concludedAtMillis, predicted, observed, reason, along, priority, decision);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("hypothesis", hypothesis);
    m.put("focus", ModelJson.toJson(focus));
    m.put("state", state.word());
    m.put("value", number(value));
    m.put("threshold", number(threshold));
    m.put("testedSinceMillis", testedSinceMillis);
    m.put("concludedAtMillis", concludedAtMillis);
    m.put("predictedCost", number(predictedCost));
    m.put("observedCost", number(observedCost));
    m.put("reason", reason);
    m.put("along", along == null ? null : along.rootName());
    m.put("priority", number(priority));
    if (decision != null) {
      m.put("decision", decision.toJson());
    }
    return m;
  }

  static ShgNode fromJson(Map<?, ?> m) {
    Object along = m.get("along");
    return new ShgNode(
        ((Number) m.get("id")).intValue(),
        (String) m.get("hypothesis"),
        ModelJson.readFocus(m.get("focus")),
        NodeState.byWord((String) m.get("state")),
        real(m.get("value")),
        real(m.get("threshold")),
        ((Number) m.get("testedSinceMillis")).longValue(),
        ((Number) m.get("concludedAtMillis")).longValue(),
        real(m.get("predictedCost")),
        real(m.get("observedCost")),
        (String) m.get("reason"),
        along == null ? null : Hierarchy.byRootName((String) along),
        real(m.get("priority")),
        Decision.fromJson(m.get("decision")));
  }

  private static Object number(double d) {
    return Double.isNaN(d) || Double.isInfinite(d) ? null : d;
  }

  private static double real(Object o) {
    return o == null ? Double.NaN : ((Number) o).doubleValue();
  }
}
