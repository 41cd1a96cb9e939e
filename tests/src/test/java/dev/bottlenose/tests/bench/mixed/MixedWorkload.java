package dev.bottlenose.tests.bench.mixed;

import dev.bottlenose.tests.bench.WorkloadDriver;
import java.util.ArrayList;
import java.util.List;

/**
 * An allocation- and lock-heavy benchmark target: three workers repeat one unit of 64 orders, each allocated
 * (strings, a list, an array), added to an {@link OrderBook} behind a monitor and posted to a {@link Ledger}
 * behind a {@link java.util.concurrent.locks.ReentrantLock}, plus a report string and a scratch buffer per
 * unit. Three workers on a two-core machine contend for both locks and keep the young generation busy.
 * Driven by {@link WorkloadDriver}.
 */
public final class MixedWorkload {
  static final OrderBook BOOK = new OrderBook();
  static final Ledger LEDGER = new Ledger();

  private MixedWorkload() {
  }

  public static void main(String[] args) throws Exception {
    WorkloadDriver.run("mixed", 3, MixedWorkload::unit);
  }

  static long unit(long seed) {
    long x = seed;
    List<Order> batch = new ArrayList<>(64);
    for (int i = 0; i < 64; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      Order order = Order.random(x);
      batch.add(order);
      long total = BOOK.add(order);
      LEDGER.post((int) (x >>> 40), total);
    }
    return x ^ report(batch) ^ scratch(x) ^ LEDGER.snapshot() ^ BOOK.totalOf(batch.get(0).customer);
  }

  static long report(List<Order> batch) {
    StringBuilder sb = new StringBuilder();
    for (Order o : batch) {
      sb.append(o.customer).append(':').append(o.items).append('\n');
    }
    return sb.toString().hashCode();
  }

  static long scratch(long x) {
    byte[] buffer = new byte[1_024 + (int) (x & 4_095)];
    for (int i = 0; i < buffer.length; i += 64) {
      buffer[i] = (byte) (x >>> (i & 31));
    }
    return buffer[buffer.length / 2];
  }
}
