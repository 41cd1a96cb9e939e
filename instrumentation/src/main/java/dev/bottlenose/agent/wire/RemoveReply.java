package dev.bottlenose.agent.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The answer to {@code removeMany} and {@code removeAll}: the probes taken out, and the ids that could not go with why. */
public record RemoveReply(List<Removed> removed, List<Failure> failures) {
  public RemoveReply {
    removed = List.copyOf(removed);
    failures = List.copyOf(failures);
  }

  public Map<String, Object> toMap() {
    List<Object> r = new ArrayList<>();
    removed.forEach(x -> r.add(x.toMap()));
    List<Object> f = new ArrayList<>();
    failures.forEach(x -> f.add(x.toMap()));
    return Map.of("removed", r, "failures", f);
  }

  public static RemoveReply fromMap(Map<String, ?> m) {
    List<Removed> removed = new ArrayList<>();
    Fields.mapsOr(m, "removed").forEach(r -> removed.add(Removed.fromMap(r)));
    List<Failure> failures = new ArrayList<>();
    Fields.mapsOr(m, "failures").forEach(f -> failures.add(Failure.fromMap(f)));
    return new RemoveReply(removed, failures);
  }
}
