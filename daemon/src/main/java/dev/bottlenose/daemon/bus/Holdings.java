package dev.bottlenose.daemon.bus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Which member owns each probe, source and metric of a daemon, and which members hold the daemon. */
final class Holdings {
  enum Kind { PROBE, SOURCE, METRIC }

  record Owned(Kind kind, long id) {}

  private final Map<Owned, String> owners = new HashMap<>();
  private final Set<String> holders = new LinkedHashSet<>();
  private boolean unheld;

  synchronized void own(String node, Kind kind, Long id) {
    if (id != null) {
      owners.put(new Owned(kind, id), node);
    }
  }

  /** Forgets the owner of what is being removed; answers {@code id}. */
  synchronized long released(Kind kind, long id) {
    owners.remove(new Owned(kind, id));
    return id;
  }

  /** {@code node} is gone: what it owned (now forgotten, for the caller to remove); it holds nothing. */
  synchronized List<Owned> left(String node) {
    List<Owned> owned = new ArrayList<>();
    owners.entrySet().removeIf(e -> {
      if (e.getValue().equals(node)) {
        owned.add(e.getKey());
        return true;
      }
      return false;
    });
    holders.remove(node);
    return owned;
  }

  /** Adds a holder; false (and nothing added) once the daemon was let go by its last holder. */
  synchronized boolean hold(String node) {
    if (unheld) {
      return false;
    }
    holders.add(node);
    return true;
  }

  synchronized void letGo(String node) {
    holders.remove(node);
  }

  synchronized Set<String> holders() {
    return Set.copyOf(holders);
  }

  /** True the first time only: the daemon is unheld once. */
  synchronized boolean markUnheld() {
    if (unheld) {
      return false;
    }
    unheld = true;
    return true;
  }
}
