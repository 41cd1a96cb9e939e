package diag;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How the diagnosis programs run: print {@code ready pid=N}, start the workers, stop them after
 * {@code -Ddiag.seconds} (default 90) or when standard input says {@code exit}, then exit. The programs
 * know nothing of Bottlenose; each one plants one cause (or two, or none) that its known answer names.
 */
public final class Run {
  private static volatile boolean running = true;

  private Run() {}

  /** Whether the program should go on. */
  public static boolean running() {
    return running;
  }

  /** Runs {@code workers} (each on a thread of the given name) until the time is up; then exits. */
  public static void workers(List<Worker> workers) throws InterruptedException {
    long seconds = Long.getLong("diag.seconds", 90);
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    Thread input = new Thread(Run::awaitExit, "input");
    input.setDaemon(true);
    input.start();
    List<Thread> threads = new ArrayList<>();
    for (Worker w : workers) {
      Thread t = new Thread(() -> {
        try {
          w.body().run();
        } catch (Exception e) {
          if (running) {
            e.printStackTrace();
          }
        }
      }, w.name());
      threads.add(t);
      t.start();
    }
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (running && System.nanoTime() < end) {
      Thread.sleep(100);
    }
    running = false;
    for (Thread t : threads) {
      t.join(5_000);
    }
    System.exit(0);
  }

  /** A worker thread's name and body; the body loops while {@link #running()}. */
  public record Worker(String name, Body body) {}

  /** A worker's body; it may throw, which ends that worker. */
  @FunctionalInterface
  public interface Body {
    void run() throws Exception;
  }

  private static void awaitExit() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.trim().equals("exit")) {
          running = false;
          return;
        }
      }
    } catch (IOException e) {
      // no standard input: run for the time given
    }
  }
}
