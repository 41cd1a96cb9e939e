package dev.bottlenose.tests.workloads;

/**
 * A CPU-bound target: two threads spin in {@link #burn} until standard input says {@code exit} (or
 * closes), so that it stays CPU-bound on a machine other programs keep busy too. It prints {@code ready}
 * once started.
 */
public final class HotMethodWorkload {
  static volatile boolean running = true;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    ExitCommand.onExit(() -> running = false);
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    Thread second = new Thread(() -> sink += burn(), "burner");
    second.start();
    sink += burn();
    second.join();
  }

  /** Arithmetic in a loop, nothing else: all of the program's CPU time is spent here. */
  static long burn() {
    long x = 1;
    while (running) {
      for (int i = 0; i < 1000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      x ^= System.nanoTime();
    }
    return x;
  }
}
