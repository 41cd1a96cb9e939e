package dev.bottlenose.tests.bench.mixed;

import java.util.concurrent.locks.ReentrantLock;

/** Running balances in buckets, shared by every worker behind one {@link ReentrantLock}. */
final class Ledger {
  private final ReentrantLock lock = new ReentrantLock();
  private final long[] balances = new long[64];

  void post(int bucket, long amount) {
    lock.lock();
    try {
      balances[bucket & 63] += amount;
    } finally {
      lock.unlock();
    }
  }

  long snapshot() {
    lock.lock();
    try {
      long sum = 0;
      for (long b : balances) {
        sum += b;
      }
      return sum;
    } finally {
      lock.unlock();
    }
  }
}
