package dev.bottlenose.tests.workloads;

/**
 * Allocation churn planted: two threads create small {@link Particle} objects as fast as they can, each
 * kept only until its thread's ring of {@value #RING} slots comes round again (so it escapes and cannot be
 * scalar-replaced, and lives through a few young collections before it dies). The ring makes every young
 * collection copy a few megabytes: in a 64 MB heap the collector's pauses take about 30% of wall time
 * (a ring of 1,024 made it 7.5%, under the memory-pressure threshold). Runs until standard input says
 * {@code exit}.
 */
public final class ChurnWorkload {
  static volatile boolean running = true;
  static volatile long sink;
  static final int RING = 32_768;

  static final class Particle {
    final long position;
    final long velocity;

    Particle(long position, long velocity) {
      this.position = position;
      this.velocity = velocity;
    }
  }

  public static void main(String[] args) throws Exception {
    ExitCommand.onExit(() -> running = false);
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    Thread second = new Thread(() -> sink += churn(), "churner");
    second.start();
    sink += churn();
    second.join();
  }

  /** Creates short-lived objects and little else. */
  static long churn() {
    Particle[] ring = new Particle[RING];
    long x = 0;
    int slot = 0;
    while (running) {
      for (int i = 0; i < 4096; i++) {
        Particle p = new Particle(x, i);
        ring[slot++ & (RING - 1)] = p;
        x += p.velocity;
      }
    }
    return x;
  }
}
