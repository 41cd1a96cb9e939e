package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A target that is mostly asleep: its main thread wakes every 50 ms, does a few microseconds of work
 * and sleeps again, until standard input says {@code exit} (or closes). It prints {@code ready} once started.
 */
public final class SleepyWorkload {
  static volatile boolean running = true;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    Thread input = new Thread(SleepyWorkload::awaitExit, "input");
    input.setDaemon(true);
    input.start();
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    while (running) {
      Thread.sleep(50);
      sink += System.nanoTime() % 7;
    }
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
