package diag.parking;

import diag.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Planted: lock contention on a {@code java.util.concurrent} lock. Four order threads reserve stock in
 * one inventory guarded by a single {@link ReentrantLock}; the reservation computes for about 50 µs inside
 * the lock and the threads do little outside it, so they park on the lock most of the time. Known answer:
 * sync_wait at the lock (class {@code java.util.concurrent.locks.ReentrantLock}) or at
 * {@code diag.parking.Inventory.reserve}.
 */
public final class Inventory {
  static volatile long sink;
  private final ReentrantLock lock = new ReentrantLock();
  private final long[] stock = new long[4096];

  public static void main(String[] args) throws Exception {
    Inventory inventory = new Inventory();
    List<Run.Worker> workers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      int n = i;
      workers.add(new Run.Worker("orders-" + i, () -> orders(inventory, n)));
    }
    Run.workers(workers);
  }

  static void orders(Inventory inventory, int n) {
    long order = n;
    while (Run.running()) {
      sink += inventory.reserve(order++);
    }
  }

  long reserve(long order) {
    lock.lock();
    try {
      long h = order;
      for (int i = 0; i < 20_000; i++) {
        h = h * 6364136223846793005L + 1442695040888963407L;
        stock[(int) (h >>> 52)]++;
      }
      return h;
    } finally {
      lock.unlock();
    }
  }
}
