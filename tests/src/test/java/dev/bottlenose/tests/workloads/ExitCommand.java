package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** The workloads' one command: {@code exit} on standard input (or its end) stops them. */
final class ExitCommand {
  /** Starts the daemon thread {@code input}, which runs {@code onExit} once standard input says exit or ends. */
  static void onExit(Runnable onExit) {
    Thread input = new Thread(() -> {
      await();
      onExit.run();
    }, "input");
    input.setDaemon(true);
    input.start();
  }

  private static void await() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.trim().equals("exit"); line = in.readLine()) {
        // only "exit" is a command
      }
    } catch (IOException e) {
      // standard input gone: end as on exit
    }
  }

  private ExitCommand() {}
}
