package diag.churn;

import diag.Run;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Planted: object-creation overhead without GC pressure. Counting events per key in a map of boxed
 * {@code Long} keys and small records: every event allocates a key, a record and map entries, all short
 * lived, in a heap large enough that collections stay short. Known answer: object_creation_overhead
 * (below cpu_bound) in {@code diag.churn}; memory_pressure false.
 */
public final class EventCounter {
  static volatile long sink;

  record Event(long key, int weight, String kind) {}

  record Tally(long count, long weight) {
    Tally add(Event e) {
      return new Tally(count + 1, weight + e.weight());
    }
  }

  public static void main(String[] args) throws Exception {
    List<Run.Worker> workers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      long seed = i * 7919L;
      workers.add(new Run.Worker("counter-" + i, () -> count(seed)));
    }
    Run.workers(workers);
  }

  static void count(long seed) {
    long x = seed | 1;
    while (Run.running()) {
      Map<Long, Tally> tallies = new HashMap<>();
      for (int i = 0; i < 50_000; i++) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        Event e = new Event(x & 1023, (int) (x >>> 40) & 15, (x & 1) == 0 ? "read" : "write");
        tallies.merge(e.key(), new Tally(1, e.weight()), (a, b) -> a.add(e));
      }
      sink += tallies.size();
    }
  }
}
