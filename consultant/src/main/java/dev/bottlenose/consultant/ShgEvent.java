package dev.bottlenose.consultant;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A change of the search-history graph, or of what the search found, as published to listeners (the web UI, the event
 * bus).
 */
public sealed interface ShgEvent {

  /** The search this event belongs to. */
  String searchId();

  Map<String, Object> toJson();

  record NodeAdded(String searchId, ShgNode node) implements ShgEvent {
    public Map<String, Object> toJson() {
      return body(this, "nodeAdded", "node", node.toJson());
    }
  }

  record NodeChanged(String searchId, ShgNode node) implements ShgEvent {
    public Map<String, Object> toJson() {
      return body(this, "nodeChanged", "node", node.toJson());
    }
  }

  record EdgeAdded(String searchId, ShgEdge edge) implements ShgEvent {
    public Map<String, Object> toJson() {
      return body(this, "edgeAdded", "edge", edge.toJson());
    }
  }

  record SearchEnded(String searchId, String reason) implements ShgEvent {
    public Map<String, Object> toJson() {
      return body(this, "searchEnded", "reason", reason);
    }
  }

  /**
   * The threads holding the contended locks were looked at while the search runs ({@code held}: how many locks were
   * seen held): a lock-contention finding now says who holds its lock and what the holder does.
   */
  record LockHolders(String searchId, int held) implements ShgEvent {
    public Map<String, Object> toJson() {
      return body(this, "lockHolders", "held", held);
    }
  }

  private static Map<String, Object> body(ShgEvent e, String type, String key, Object value) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", type);
    m.put("searchId", e.searchId());
    m.put(key, value);
    return m;
  }
}
