package diag.twocauses;

import diag.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Planted: two causes at once. One pricing thread computes option prices (CPU in {@code price}), and
 * three quote threads take turns on one {@link ReentrantLock} held while they sleep 3 ms ("read the
 * rate"), so they park most of the time. Known answer: cpu_bound at
 * {@code diag.twocauses.PriceService.price} and sync_wait at the lock (its class
 * {@code java.util.concurrent.locks.ReentrantLock}, or {@code quote}); both must be found.
 */
public final class PriceService {
  static volatile double sink;
  static final ReentrantLock RATES = new ReentrantLock();

  public static void main(String[] args) throws Exception {
    List<Run.Worker> workers = new ArrayList<>();
    workers.add(new Run.Worker("pricing", PriceService::pricing));
    for (int i = 0; i < 3; i++) {
      workers.add(new Run.Worker("quote-" + i, PriceService::quoting));
    }
    Run.workers(workers);
  }

  static void pricing() {
    double s = 100;
    while (Run.running()) {
      s = price(s, 0.2, 1.0, 4_000) * 0.999 + 1;
      sink = s;
    }
  }

  /** A binomial-tree price: CPU only. */
  static double price(double spot, double vol, double years, int steps) {
    double dt = years / steps;
    double up = Math.exp(vol * Math.sqrt(dt));
    double p = (Math.exp(0.01 * dt) - 1 / up) / (up - 1 / up);
    double[] v = new double[steps + 1];
    for (int i = 0; i <= steps; i++) {
      v[i] = Math.max(0, spot * Math.pow(up, 2 * i - steps) - 100);
    }
    for (int n = steps; n > 0; n--) {
      for (int i = 0; i < n; i++) {
        v[i] = p * v[i + 1] + (1 - p) * v[i];
      }
    }
    return v[0];
  }

  static void quoting() throws InterruptedException {
    while (Run.running()) {
      quote();
    }
  }

  static void quote() throws InterruptedException {
    RATES.lock();
    try {
      Thread.sleep(3);
    } finally {
      RATES.unlock();
    }
  }
}
