package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A planted synchronisation bottleneck: three tellers post to one {@link Account} whose monitor they take
 * in {@link #post}, and each holds it about 2 ms (asleep, so the program uses little CPU): two tellers
 * are blocked on the account's monitor most of the time. A clerk takes a lock of its own that nobody
 * else wants. Runs until standard input says {@code exit} (or closes); prints {@code ready} once started.
 */
public final class SyncWorkload {
  static final Account ACCOUNT = new Account();
  static volatile boolean running = true;

  /** The contended lock. */
  static final class Account {
    long balance;
  }

  /** A lock only the clerk takes. */
  static final class Drawer {
    long count;
  }

  public static void main(String[] args) throws Exception {
    for (int i = 0; i < 3; i++) {
      start(SyncWorkload::teller, "teller-" + i);
    }
    start(SyncWorkload::clerk, "clerk");
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.trim().equals("exit"); line = in.readLine()) {
        // only "exit" is a command
      }
    }
    running = false;
  }

  private static void start(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  private static void teller() {
    while (running) {
      post(1);
    }
  }

  /** Takes the account's monitor and keeps it about 2 ms. */
  static void post(long amount) {
    synchronized (ACCOUNT) {
      ACCOUNT.balance += amount;
      pause(2);
    }
  }

  private static void clerk() {
    Drawer drawer = new Drawer();
    while (running) {
      synchronized (drawer) {
        drawer.count++;
      }
      pause(5);
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
