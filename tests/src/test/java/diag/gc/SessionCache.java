package diag.gc;

import diag.Run;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Planted: GC pressure. A cache of sessions kept near the heap's limit: each worker puts large entries
 * (64 KiB of state) into a size-bounded LRU map holding about 60% of a small heap, so old entries are
 * promoted before they die and the collector runs often and long. Run with {@code -Xmx256m}. Known
 * answer: memory_pressure at the process (gc_time over 0.10).
 */
public final class SessionCache {
  static volatile long sink;
  static final int ENTRY_BYTES = 64 * 1024;

  public static void main(String[] args) throws Exception {
    long max = Runtime.getRuntime().maxMemory();
    int entries = (int) (max * 0.6 / ENTRY_BYTES);
    Map<Long, byte[]> cache = java.util.Collections.synchronizedMap(new LinkedHashMap<>(entries, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
        return size() > entries;
      }
    });
    List<Run.Worker> workers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      long base = i * 1_000_000_000L;
      workers.add(new Run.Worker("sessions-" + i, () -> churn(cache, base)));
    }
    Run.workers(workers);
  }

  static void churn(Map<Long, byte[]> cache, long base) {
    long id = base;
    while (Run.running()) {
      byte[] state = new byte[ENTRY_BYTES];
      state[(int) (id & (ENTRY_BYTES - 1))] = (byte) id;
      cache.put(id++, state);
      byte[] hit = cache.get(id - 1 - (id & 4095));
      if (hit != null) {
        sink += hit[0];
      }
    }
  }
}
