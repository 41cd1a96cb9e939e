package dev.bottlenose.tests.workloads;

/**
 * A target that is mostly asleep: its main thread wakes every 50 ms, does a few microseconds of work
 * and sleeps again, until standard input says {@code exit} (or closes). It prints {@code ready} once started.
 */
public final class SleepyWorkload {
  static volatile boolean running = true;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    ExitCommand.onExit(() -> running = false);
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    while (running) {
      Thread.sleep(50);
      sink += System.nanoTime() % 7;
    }
  }
}
