package dev.bottlenose.agent.wire;

import dev.bottlenose.model.ResourceChange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The event the agent pushes when the resource hierarchies changed ({@code "event": "changes"}, at most one frame
 * per 500 ms): each change's type and the resource as the resource model writes it ({@code ModelJson}).
 * PROTOCOL.md, "Events".
 */
public record Changes(List<Change> changes) {
  static final String EVENT = "changes";

  public Changes {
    changes = List.copyOf(changes);
  }

  /** One change: {@code added}, {@code updated} or {@code removed}, and the resource's JSON ({@code path}, {@code kind}, {@code attributes}). */
  public record Change(ResourceChange.Type type, Map<String, Object> resource) {
    public Change {
      if (type == null) {
        throw new WireException("type", null, "a change needs a type (added, updated or removed)");
      }
      resource = Collections.unmodifiableMap(new LinkedHashMap<>(resource));
    }

    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", type.name().toLowerCase(Locale.ROOT));
      m.put("resource", new LinkedHashMap<>(resource));
      return m;
    }

    /** Reads item {@code position} of {@code changes}; an unknown type or a resource that is not an object throws naming it. */
    public static Change fromMap(Map<String, ?> m, int position) {
      String field = "changes[" + position + "]";
      Object word = m.get("type");
      ResourceChange.Type type = null;
      for (ResourceChange.Type t : ResourceChange.Type.values()) {
        if (t.name().toLowerCase(Locale.ROOT).equals(word)) {
          type = t;
        }
      }
      if (type == null) {
        throw new WireException(field + ".type", word, field + ".type must be added, updated or removed, not " + word);
      }
      if (!(m.get("resource") instanceof Map<?, ?>)) {
        throw new WireException(field + ".resource", m.get("resource"), field + ".resource must be an object, not "
            + m.get("resource"));
      }
      return new Change(type, Fields.mapOr(m, "resource"));
    }
  }

  /** Whether a frame is a changes event (its {@code event}). */
  public static boolean isChanges(Map<String, ?> frame) {
    return EVENT.equals(frame.get("event"));
  }

  /** The frame as the agent sends it. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", EVENT);
    m.put("changes", changeMaps());
    return m;
  }

  /** The changes as maps, as they are passed on to the daemon's listeners. */
  public List<Map<String, Object>> changeMaps() {
    List<Map<String, Object>> list = new ArrayList<>(changes.size());
    changes.forEach(c -> list.add(c.toMap()));
    return list;
  }

  /** Reads the event; a malformed change throws naming it ({@code changes[3].type}). */
  public static Changes fromMap(Map<String, ?> m) {
    List<?> items = Fields.list(m, "changes", "a changes event needs changes: [{\"type\":…, \"resource\":…}, …]");
    List<Change> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof Map<?, ?> item)) {
        throw new WireException("changes[" + i + "]", items.get(i), "changes[" + i + "] must be an object, not "
            + items.get(i));
      }
      @SuppressWarnings("unchecked")
      Map<String, ?> fields = (Map<String, ?>) item;
      out.add(Change.fromMap(fields, i));
    }
    return new Changes(out);
  }
}
