package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Allocation churn planted: two threads create small {@link Particle} objects as fast as they can, each
 * kept only until the ring of 1,024 slots comes round again (so it escapes and cannot be scalar-replaced,
 * and dies young). Runs until standard input says {@code exit}.
 */
public final class ChurnWorkload {
  static volatile boolean running = true;
  static volatile long sink;

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
    Particle[] ring = new Particle[1024];
    long x = 0;
    while (running) {
      for (int i = 0; i < 4096; i++) {
        Particle p = new Particle(x, i);
        ring[i & 1023] = p;
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
