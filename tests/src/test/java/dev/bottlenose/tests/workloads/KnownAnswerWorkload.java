package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A target program with one scenario per performance cause, each of which knows its own answer and
 * prints it. Driven by lines on standard input: {@code <scenario> <millis>} runs a scenario for about
 * that long and prints {@code done scenario=… key=value…}; {@code exit} ends. Prints {@code ready} first.
 *
 * <ul>
 *   <li>{@code cpu}: one thread spins in {@link #spin}; truth: its CPU nanos (thread CPU time).
 *   <li>{@code monitor}: a holder keeps {@link #LOCK} for 4 ms of every 5 ms while a waiter enters it
 *       in {@link #contend}; truth: the waiter's blocked nanos (measured around the block).
 *   <li>{@code park}: a holder keeps a {@code ReentrantLock} for 4 ms of every 5 ms while a waiter takes it in
 *       {@link #lockParked}, and an idle worker waits for jobs that never come in {@link #awaitJobs} (a queue's
 *       {@code poll}: a condition, not a lock); truth: the waiter's and the idle worker's blocked nanos.
 *   <li>{@code alloc}: {@link #churn} creates {@code Point} objects and {@code long[8]} arrays; truth:
 *       counts, and the bytes the thread allocated on the heap meanwhile (the JVM's own per-thread count).
 *   <li>{@code io}: {@link #readSlowly} reads from a loopback socket whose peer writes 64 bytes every
 *       2 ms; truth: reads, bytes, and nanos blocked in {@code read}.
 *   <li>{@code sync}: {@link JournalWorkload#syncSlowly}, on a thread of its own, appends 512 bytes to a file and
 *       syncs it to the device ({@code FileDescriptor.sync}, which JDK 17 records no I/O event for), then
 *       computes for about a millisecond, over and over; truth: the nanos inside the writes and syncs. Its own
 *       thread and class, so that this class is not taken for a long-running activation afterwards.
 *   <li>{@code gc}: {@link #forceGc} calls {@code System.gc()} every 50 ms; truth: the count.
 *   <li>{@code sleep}: the thread sleeps; truth: nothing is hot.
 *   <li>{@code virtual}: (JDK 21+) starts 50 virtual threads that sleep, and leaves them sleeping for
 *       the given time; truth: how many were started.
 *   <li>{@code jit}: calls {@link #jitted}, which runs nowhere else, until it is compiled; truth: calls.
 *   <li>{@code classload}: {@link #loadBurst} defines this package's classes again in fresh class loaders;
 *       truth: classes loaded and the nanos spent in {@code loadClass}.
 * </ul>
 */
public final class KnownAnswerWorkload {
  static final Object LOCK = new Object();
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.trim().split("\\s+");
      if (words[0].equals("exit")) {
        return;
      }
      long millis = words.length > 1 ? Long.parseLong(words[1]) : 1000;
      String result = run(words[0], millis);
      System.out.println("done scenario=" + words[0] + " " + result);
      System.out.flush();
    }
  }

  private static String run(String scenario, long millis) throws Exception {
    switch (scenario) {
      case "cpu":
        return cpu(millis);
      case "monitor":
        return monitor(millis);
      case "park":
        return park(millis);
      case "alloc":
        return alloc(millis);
      case "io":
        return io(millis);
      case "sync":
        return "ioNanos=" + JournalWorkload.syncSlowlyOnItsOwnThread(millis);
      case "gc":
        return "gcs=" + forceGc(millis);
      case "virtual":
        return "started=" + startVirtual(millis);
      case "jit":
        return jit(millis);
      case "classload":
        return classLoad(millis);
      case "sleep":
        Thread.sleep(millis);
        return "slept=" + millis;
      default:
        return "error=unknown-scenario";
    }
  }

  private static String cpu(long millis) {
    long cpu0 = threadCpu();
    long t0 = System.nanoTime();
    long result = spin(millis);
    long wall = System.nanoTime() - t0;
    sink = result;
    return "cpuNanos=" + (threadCpu() - cpu0) + " wallNanos=" + wall;
  }

  private static String jit(long millis) {
    long end = System.nanoTime() + millis * 1_000_000;
    long calls = 0;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 1000; i++) {
        sink += jitted(calls++);
      }
    }
    return "calls=" + calls;
  }

  /** A little arithmetic only the {@code jit} scenario runs, so its compilations happen then. */
  static long jitted(long seed) {
    long x = seed;
    for (int i = 0; i < 20; i++) {
      x = x * 31 + (x >>> 7);
    }
    return x;
  }

  private static String classLoad(long millis) throws Exception {
    java.net.URL[] path = {KnownAnswerWorkload.class.getProtectionDomain().getCodeSource().getLocation()};
    long end = System.nanoTime() + millis * 1_000_000;
    long[] r = new long[2];
    while (System.nanoTime() < end) {
      try (java.net.URLClassLoader loader = new java.net.URLClassLoader(path, null)) {
        loadBurst(loader, r);
      }
      Thread.sleep(5);
    }
    return "loads=" + r[0] + " loadNanos=" + r[1];
  }

  /** Loads (without initialising) this package's workload classes in {@code loader}; counts and times it. */
  static void loadBurst(ClassLoader loader, long[] out) throws ClassNotFoundException {
    String pkg = KnownAnswerWorkload.class.getPackageName() + ".";
    for (String name : new String[] {"CountingWorkload", "KnownAnswerWorkload", "KnownAnswerWorkload$Point"}) {
      long t0 = System.nanoTime();
      Class.forName(pkg + name, false, loader);
      out[1] += System.nanoTime() - t0;
      out[0]++;
    }
  }

  /** Busy arithmetic for about {@code millis}. */
  static long spin(long millis) {
    long end = System.nanoTime() + millis * 1_000_000;
    long x = 17;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 1000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
    }
    return x;
  }

  private static String monitor(long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000;
    Thread holder = new Thread(() -> hold(end), "known-holder");
    holder.start();
    long[] blocked = new long[2];
    Thread waiter = new Thread(() -> blocked[0] = contend(end, blocked), "known-waiter");
    waiter.start();
    holder.join();
    waiter.join();
    return "blockedNanos=" + blocked[0] + " entries=" + blocked[1];
  }

  private static String park(long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000;
    java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    Thread holder = new Thread(() -> {
      while (System.nanoTime() < end) {
        lock.lock();
        try {
          busyFor(4_000_000);
        } finally {
          lock.unlock();
        }
        busyFor(1_000_000);
      }
    }, "known-lock-holder");
    long[] waits = new long[2];
    Thread waiter = new Thread(() -> waits[0] = lockParked(end, lock), "known-lock-waiter");
    Thread idle = new Thread(() -> waits[1] = awaitJobs(end), "known-idle-worker");
    holder.start();
    waiter.start();
    idle.start();
    holder.join();
    waiter.join();
    idle.join();
    return "lockNanos=" + waits[0] + " idleNanos=" + waits[1];
  }

  /** Takes {@code lock} over and over; returns the nanos spent waiting to get it. */
  static long lockParked(long end, java.util.concurrent.locks.ReentrantLock lock) {
    long waited = 0;
    while (System.nanoTime() < end) {
      long t0 = System.nanoTime();
      lock.lock();
      try {
        waited += System.nanoTime() - t0;
        sink++;
      } finally {
        lock.unlock();
      }
      busyFor(200_000);
    }
    return waited;
  }

  /** Waits for jobs on an empty queue until {@code end}, as an idle pool worker does; returns the nanos waited. */
  static long awaitJobs(long end) {
    java.util.concurrent.LinkedBlockingQueue<Long> jobs = new java.util.concurrent.LinkedBlockingQueue<>();
    long waited = 0;
    try {
      for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
        long t0 = System.nanoTime();
        Long job = jobs.poll(Math.min(left, 100_000_000), java.util.concurrent.TimeUnit.NANOSECONDS);
        waited += System.nanoTime() - t0;
        sink += job == null ? 0 : job;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return waited;
  }

  static void hold(long end) {
    while (System.nanoTime() < end) {
      synchronized (LOCK) {
        busyFor(4_000_000);
      }
      busyFor(1_000_000);
    }
  }

  /** Enters {@link #LOCK} over and over; returns the nanos spent waiting to get in. */
  static long contend(long end, long[] out) {
    long waited = 0;
    while (System.nanoTime() < end) {
      long t0 = System.nanoTime();
      synchronized (LOCK) {
        waited += System.nanoTime() - t0;
        out[1]++;
        sink++;
      }
      busyFor(200_000);
    }
    return waited;
  }

  private static void busyFor(long nanos) {
    long end = System.nanoTime() + nanos;
    while (System.nanoTime() < end) {
      sink++;
    }
  }

  private static String alloc(long millis) {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long tid = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(tid);
    long end = System.nanoTime() + millis * 1_000_000;
    long[] counts = new long[2];
    while (System.nanoTime() < end) {
      churn(counts);
    }
    long heapBytes = threads.getThreadAllocatedBytes(tid) - before;
    return "points=" + counts[0] + " arrays=" + counts[1] + " heapBytes=" + heapBytes;
  }

  /** Creates 100 points and 100 arrays of 8 longs, keeping none. */
  static void churn(long[] counts) {
    List<Object> keep = new ArrayList<>(4);
    for (int i = 0; i < 100; i++) {
      Point p = new Point(i, i + 1);
      long[] a = new long[8];
      a[i & 7] = p.x;
      if ((i & 63) == 0) {
        keep.add(a);
      }
    }
    counts[0] += 100;
    counts[1] += 100;
    sink += keep.size();
  }

  record Point(long x, long y) {}

  private static String io(long millis) throws IOException, InterruptedException {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread writer = new Thread(() -> writeSlowly(server, millis), "known-writer");
      writer.start();
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
        long[] r = readSlowly(s.getInputStream());
        writer.join();
        return "reads=" + r[0] + " bytes=" + r[1] + " blockedNanos=" + r[2];
      }
    }
  }

  private static void writeSlowly(ServerSocket server, long millis) {
    try (Socket peer = server.accept(); OutputStream out = peer.getOutputStream()) {
      long end = System.nanoTime() + millis * 1_000_000;
      byte[] chunk = new byte[64];
      while (System.nanoTime() < end) {
        out.write(chunk);
        out.flush();
        Thread.sleep(2);
      }
    } catch (IOException | InterruptedException e) {
      System.err.println("writer: " + e);
    }
  }

  /** Reads until the peer closes; returns reads, bytes and nanos spent inside {@code read}. */
  static long[] readSlowly(InputStream in) throws IOException {
    long[] r = new long[3];
    byte[] buffer = new byte[4096];
    while (true) {
      long t0 = System.nanoTime();
      int n = in.read(buffer);
      r[2] += System.nanoTime() - t0;
      if (n < 0) {
        return r;
      }
      r[0]++;
      r[1] += n;
    }
  }

  static int forceGc(long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000;
    int n = 0;
    while (System.nanoTime() < end) {
      System.gc();
      n++;
      Thread.sleep(50);
    }
    return n;
  }

  /** Starts 50 virtual threads sleeping {@code millis} (by reflection: this class is built for JDK 17). */
  private static int startVirtual(long millis) throws Exception {
    java.lang.reflect.Method start;
    try {
      start = Thread.class.getMethod("startVirtualThread", Runnable.class);
    } catch (NoSuchMethodException e) {
      return 0;
    }
    for (int i = 0; i < 50; i++) {
      start.invoke(null, (Runnable) () -> {
        try {
          Thread.sleep(millis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    return 50;
  }

  private static long threadCpu() {
    return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  private KnownAnswerWorkload() {}
}
