package diag.idle;

import diag.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Planted: nothing. A job scheduler that is mostly idle: a timer thread queues a small job every 200 ms
 * and two workers take them (about 1 ms of CPU each). Known answer: no hypothesis true.
 */
public final class Scheduler {
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    LinkedBlockingQueue<Long> jobs = new LinkedBlockingQueue<>();
    List<Run.Worker> workers = new ArrayList<>();
    workers.add(new Run.Worker("timer", () -> {
      long n = 0;
      while (Run.running()) {
        jobs.put(n++);
        Thread.sleep(200);
      }
    }));
    for (int i = 0; i < 2; i++) {
      workers.add(new Run.Worker("worker-" + i, () -> {
        while (Run.running()) {
          Long job = jobs.poll(100, TimeUnit.MILLISECONDS);
          if (job != null) {
            sink += work(job);
          }
        }
      }));
    }
    Run.workers(workers);
  }

  static long work(long job) {
    long h = job;
    for (int i = 0; i < 200_000; i++) {
      h = h * 31 + i;
    }
    return h;
  }
}
