package dev.bottlenose.agent.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer to {@code holders}: how many looks were taken, and each lock found held while another thread waited
 * for it, by what its holder was doing: the lock ({@code monitor com.acme.Cache}, or {@code lock} and the class of a
 * {@code java.util.concurrent} lock), the holder's thread, its state and stack (top frame first, as {@code /Code}
 * paths without descriptors), in how many looks it was seen so, and the threads seen waiting and their pools
 * (as the {@code /Threads} hierarchy names them).
 */
public record HoldersReply(int looks, List<Held> held) {
  public HoldersReply {
    held = List.copyOf(held);
  }

  /**
   * One lock held by one thread doing one thing, in {@code seen} of the looks, while {@code waiters} waited; their
   * pools are {@code waiterPools}.
   */
  public record Held(String lock, String owner, String ownerState, List<String> ownerStack, int seen,
      List<String> waiters, List<String> waiterPools) {
    public Held {
      ownerStack = List.copyOf(ownerStack);
      waiters = List.copyOf(waiters);
      waiterPools = List.copyOf(waiterPools);
    }

    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("lock", lock);
      m.put("owner", owner);
      m.put("ownerState", ownerState);
      m.put("ownerStack", ownerStack);
      m.put("seen", (long) seen);
      m.put("waiters", waiters);
      m.put("waiterPools", waiterPools);
      return m;
    }

    static Held fromMap(Map<String, ?> m) {
      return new Held(Fields.text(m, "lock"), Fields.text(m, "owner"), Fields.text(m, "ownerState"),
          strings(m, "ownerStack"), (int) Fields.number(m, "seen"), strings(m, "waiters"), strings(m, "waiterPools"));
    }
  }

  public Map<String, Object> toMap() {
    return Map.of("looks", (long) looks, "held", LedgerReply.maps(held, Held::toMap));
  }

  public static HoldersReply fromMap(Map<String, ?> m) {
    return new HoldersReply((int) Fields.number(m, "looks"), LedgerReply.items(m, "held", Held::fromMap));
  }

  private static List<String> strings(Map<String, ?> m, String field) {
    List<String> out = new ArrayList<>();
    for (Object o : Fields.list(m, field, field + " (a list of strings) is missing")) {
      out.add(String.valueOf(o));
    }
    return out;
  }
}
