package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

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
    Thread input = new Thread(ChurnWorkload::awaitExit, "input");
    input.setDaemon(true);
    input.start();
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
