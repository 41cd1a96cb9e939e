package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A CPU-bound target: two threads spin in {@link #burn} until standard input says {@code exit} (or
 * closes), so that it stays CPU-bound on a machine other programs keep busy too. It prints {@code ready}
 * once started.
 */
public final class HotMethodWorkload {
  static volatile boolean running = true;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    Thread input = new Thread(HotMethodWorkload::awaitExit, "input");
    input.setDaemon(true);
    input.start();
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

  private static void awaitExit() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.trim().equals("exit"); line = in.readLine()) {
        // only "exit" is a command
      }
    } catch (java.io.IOException e) {
      // standard input gone: end as on exit
    }
    running = false;
  }
}
