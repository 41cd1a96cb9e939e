package dev.bottlenose.daemon.attach;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Copies a child's output stream line by line to a sink (or nowhere) and keeps its last lines. */
final class OutputPump implements Runnable {
  private static final int KEEP = 20;
  private final InputStream in;
  private final PrintStream sink;
  private final Deque<String> last = new ArrayDeque<>();
  private final CountDownLatch ended = new CountDownLatch(1);

  private OutputPump(InputStream in, PrintStream sink) {
    this.in = in;
    this.sink = sink;
  }

  static OutputPump start(InputStream in, PrintStream sink, String threadName) {
    OutputPump pump = new OutputPump(in, sink);
    Thread t = new Thread(pump, threadName);
    t.setDaemon(true);
    t.start();
    return pump;
  }

  @Override
  public void run() {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        remember(line);
        if (sink != null) {
          sink.println(line);
        }
      }
    } catch (IOException e) {
      remember("(output unreadable: " + e.getMessage() + ")");
    } finally {
      ended.countDown();
    }
  }

  private synchronized void remember(String line) {
    if (last.size() == KEEP) {
      last.removeFirst();
    }
    last.addLast(line);
  }

  /** The last lines seen, joined with newlines. */
  synchronized String tail() {
    return String.join(System.lineSeparator(), last);
  }

  /**
   * The last lines once the stream has ended, waiting at most {@code millis} for it: a child that has
   * just exited may still have output in the pipe that this pump has not read yet.
   */
  String tailAtEnd(long millis) {
    try {
      ended.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return tail();
  }
}
