package diag.lockslow;

import diag.Run;
import java.util.ArrayList;
import java.util.List;

/**
 * Planted: a lock held across slow work. Four request threads append to one audit log whose
 * {@code synchronized} {@code append} also "flushes" (sleeps 4 ms) while holding the monitor, so the
 * others wait for it most of the time. Known answer: sync_wait at the monitor of
 * {@code diag.lockslow.AuditLog} (or its method {@code append}).
 */
public final class AuditLog {
  static volatile long sink;
  private final StringBuilder buffer = new StringBuilder();

  public static void main(String[] args) throws Exception {
    AuditLog log = new AuditLog();
    List<Run.Worker> workers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      int n = i;
      workers.add(new Run.Worker("request-" + i, () -> serve(log, n)));
    }
    Run.workers(workers);
  }

  static void serve(AuditLog log, int n) throws InterruptedException {
    long requests = 0;
    while (Run.running()) {
      long x = requests++;
      for (int i = 0; i < 2_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      log.append("request " + n + " " + x);
    }
  }

  synchronized void append(String entry) throws InterruptedException {
    buffer.append(entry).append('\n');
    if (buffer.length() > 1 << 16) {
      buffer.setLength(0);
    }
    Thread.sleep(4);
    sink += buffer.length();
  }
}
