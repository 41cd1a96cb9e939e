package dev.bottlenose.tests.workloads;

/**
 * A loop that never returns: {@code main} steps a chain of {@link Cell}s until told to exit. A retransformation
 * of this class would leave the loop's activation interpreted for the rest of the run; {@link Cell} is a class of
 * its own, whose short calls may be instrumented. Runs until standard input says {@code exit}.
 */
public final class LoopWorkload {
  static volatile boolean running = true;
  static volatile long sink;

  record Cell(long value) {
    Cell next() {
      return new Cell((value * 31 + 7) ^ (value >>> 17));
    }
  }

  public static void main(String[] args) throws Exception {
    ExitCommand.onExit(() -> running = false);
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    Cell c = new Cell(1);
    while (running) {
      for (int i = 0; i < 1_000; i++) {
        c = c.next();
      }
      sink += c.value();
    }
  }
}
