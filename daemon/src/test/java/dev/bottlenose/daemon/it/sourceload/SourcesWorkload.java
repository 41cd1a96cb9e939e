package dev.bottlenose.daemon.it.sourceload;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The target of {@code SourcesIT}, run relocated to the package {@code srcworkload}: reads one command per
 * stdin line, runs that scenario and prints {@code done <command> key=value…} with the truth it measured
 * itself (thread CPU time, time a lock was held, bytes, …). Exits when stdin closes.
 */
public final class SourcesWorkload {
  static volatile long sink;
  static volatile boolean stop;

  private SourcesWorkload() {}

  public static void main(String[] args) throws Exception {
    System.out.println("ready");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] w = line.trim().split(" ");
      String result = switch (w[0]) {
        case "spin" -> spinScenario(Long.parseLong(w[1]));
        case "monitor" -> monitorScenario(Long.parseLong(w[1]));
        case "park" -> parkScenario(Long.parseLong(w[1]));
        case "handoff" -> handoffScenario(Long.parseLong(w[1]));
        case "sleep" -> "slept=" + sleeper(Integer.parseInt(w[1]), w.length > 2 ? Integer.parseInt(w[2]) : 10);
        case "fileread" -> fileScenario(Integer.parseInt(w[1]), Integer.parseInt(w[2]));
        case "socket" -> socketScenario(Integer.parseInt(w[1]), Integer.parseInt(w[2]));
        case "gc" -> gcScenario(Integer.parseInt(w[1]));
        case "jit" -> "sum=" + jitScenario();
        case "alloc" -> allocScenario(Long.parseLong(w[1]));
        case "misc" -> miscScenario(Integer.parseInt(w[1]));
        default -> "unknown=" + w[0];
      };
      System.out.println("done " + w[0] + " " + result);
      System.out.flush();
    }
    System.exit(0);
  }

  /** One thread spinning in {@link #spin} and one sleeping in {@link #napper}; the spinner's CPU and wall time. */
  static String spinScenario(long millis) throws InterruptedException {
    long[] cpu = new long[1];
    long t0 = System.nanoTime();
    Thread spinner = new Thread(() -> cpu[0] = spin(millis), "sources-spin");
    Thread napper = new Thread(() -> napper(millis), "sources-nap");
    spinner.start();
    napper.start();
    spinner.join();
    napper.join();
    return "cpu=" + cpu[0] + " wall=" + (System.nanoTime() - t0);
  }

  static long spin(long millis) {
    long end = System.nanoTime() + millis * 1_000_000;
    long x = 1;
    while (true) {
      for (int i = 0; i < 10_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      if (System.nanoTime() > end) {
        break;
      }
    }
    sink = x;
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  static void napper(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A holder keeps a monitor 20 ms of every 40 while {@link #contend} keeps trying; the time it was held. */
  static String monitorScenario(long millis) throws InterruptedException {
    Object lock = new Object();
    long[] held = new long[1];
    stop = false;
    Thread contender = new Thread(() -> contend(lock), "sources-contender");
    Thread holder = new Thread(() -> {
      long end = System.nanoTime() + millis * 1_000_000;
      while (System.nanoTime() < end) {
        synchronized (lock) {
          long t0 = System.nanoTime();
          pause(20);
          held[0] += System.nanoTime() - t0;
        }
        pause(20);
      }
    }, "sources-holder");
    contender.start();
    holder.start();
    holder.join();
    stop = true;
    contender.join();
    return "held=" + held[0];
  }

  static void contend(Object lock) {
    while (!stop) {
      synchronized (lock) {
        sink++;
      }
      pause(1);
    }
  }

  /** As {@link #monitorScenario}, with a ReentrantLock: the contender parks in {@link #contendLock}. */
  /**
   * A pool's hand-off, as a server's idle workers wait for work: a producer that pauses 0.3 ms between items and a
   * consumer that waits for each on a {@code SynchronousQueue}, thousands of parks of 0.2 ms or more a second and
   * none on a lock; how many items went through.
   */
  static String handoffScenario(long millis) throws InterruptedException {
    java.util.concurrent.SynchronousQueue<Long> queue = new java.util.concurrent.SynchronousQueue<>();
    long[] taken = new long[1];
    Thread consumer = new Thread(() -> {
      try {
        for (long item = queue.take(); item >= 0; item = queue.take()) {
          taken[0]++;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "sources-worker");
    consumer.start();
    long end = System.nanoTime() + millis * 1_000_000;
    for (long i = 0; System.nanoTime() < end; i++) {
      java.util.concurrent.locks.LockSupport.parkNanos(300_000);
      queue.put(i);
    }
    queue.put(-1L);
    consumer.join();
    return "items=" + taken[0];
  }

  static String parkScenario(long millis) throws InterruptedException {
    ReentrantLock lock = new ReentrantLock();
    long[] held = new long[1];
    stop = false;
    Thread contender = new Thread(() -> contendLock(lock), "sources-parker");
    Thread holder = new Thread(() -> {
      long end = System.nanoTime() + millis * 1_000_000;
      while (System.nanoTime() < end) {
        lock.lock();
        try {
          long t0 = System.nanoTime();
          pause(20);
          held[0] += System.nanoTime() - t0;
        } finally {
          lock.unlock();
        }
        pause(20);
      }
    }, "sources-lockholder");
    contender.start();
    holder.start();
    holder.join();
    stop = true;
    contender.join();
    return "held=" + held[0];
  }

  static void contendLock(ReentrantLock lock) {
    while (!stop) {
      lock.lock();
      try {
        sink++;
      } finally {
        lock.unlock();
      }
      pause(1);
    }
  }

  static long sleeper(int times, int millis) {
    long t0 = System.nanoTime();
    for (int i = 0; i < times; i++) {
      pause(millis);
    }
    return System.nanoTime() - t0;
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@code reads} reads of {@code size} bytes by {@link #readFile}, half through each kind of file. */
  static String fileScenario(int reads, int size) throws IOException {
    Path file = Files.createTempFile("sources", ".bin");
    try {
      Files.write(file, new byte[reads * size]);
      long bytes = readFile(file, reads, size);
      return "bytes=" + bytes;
    } finally {
      Files.delete(file);
    }
  }

  static long readFile(Path file, int reads, int size) throws IOException {
    byte[] buf = new byte[size];
    long total = 0;
    int half = reads / 2;
    try (FileInputStream in = new FileInputStream(file.toFile())) {
      for (int i = 0; i < half; i++) {
        total += in.read(buf);
      }
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      for (int i = half; i < reads; i++) {
        total += raf.read(buf);
      }
    }
    return total;
  }

  /** {@code chunks} writes of {@code size} bytes over a loopback pair, read back by {@link #readSocket}. */
  static String socketScenario(int chunks, int size) throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        Socket accepted = server.accept()) {
      long[] reads = new long[1];
      Thread reader = new Thread(() -> reads[0] = readSocket(accepted, (long) chunks * size), "sources-socket");
      reader.start();
      writeSocket(client.getOutputStream(), chunks, size);
      reader.join();
      return "reads=" + reads[0];
    }
  }

  static void writeSocket(OutputStream out, int chunks, int size) throws IOException {
    byte[] chunk = new byte[size];
    for (int i = 0; i < chunks; i++) {
      out.write(chunk);
      out.flush();
      pause(2);
    }
  }

  static long readSocket(Socket socket, long expected) {
    byte[] buf = new byte[65536];
    long total = 0;
    long reads = 0;
    try {
      InputStream in = socket.getInputStream();
      while (total < expected) {
        int n = in.read(buf);
        reads++;
        if (n < 0) {
          break;
        }
        total += n;
      }
    } catch (IOException e) {
      return -1;
    }
    return reads;
  }

  static String gcScenario(int times) {
    for (int i = 0; i < times; i++) {
      System.gc();
    }
    return "forced=" + times;
  }

  static long jitScenario() {
    long sum = 0;
    for (int i = 0; i < 200_000; i++) {
      sum += hot(i);
    }
    return sum;
  }

  static long hot(int i) {
    long x = i;
    for (int k = 0; k < 20; k++) {
      x = x * 31 + k;
    }
    return x;
  }

  /** {@code n} file writes and {@code n} monitor waits, three classes loaded and one forced GC. */
  static String miscScenario(int n) throws Exception {
    Path file = Files.createTempFile("sources", ".bin");
    try {
      writeFile(file, n);
    } finally {
      Files.delete(file);
    }
    waiter(n);
    // a thread dump is a safepoint that is not a collection's pause (the safepoint source leaves those to gc_pause)
    int threads = Thread.getAllStackTraces().size();
    return "loaded=" + loadClasses() + " gc=" + gcScenario(1).length() + " threads=" + threads;
  }

  static void writeFile(Path file, int n) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      for (int i = 0; i < n; i++) {
        raf.write(new byte[100]);
      }
    }
  }

  static void waiter(int n) throws InterruptedException {
    Object monitor = new Object();
    synchronized (monitor) {
      for (int i = 0; i < n; i++) {
        monitor.wait(5);
      }
    }
  }

  static int loadClasses() throws ClassNotFoundException {
    String prefix = SourcesWorkload.class.getName() + "$";
    for (String name : new String[] {"Loaded1", "Loaded2", "Loaded3"}) {
      Class.forName(prefix + name, false, SourcesWorkload.class.getClassLoader());
    }
    return 3;
  }

  static final class Loaded1 {}

  static final class Loaded2 {}

  static final class Loaded3 {}

  /** {@link #allocator} allocates 1 KiB arrays for {@code millis}; the bytes the thread allocated, as the JVM counts them. */
  static String allocScenario(long millis) throws InterruptedException {
    long[] allocated = new long[1];
    Thread t = new Thread(() -> allocated[0] = allocator(millis), "sources-alloc");
    t.start();
    t.join();
    return "allocated=" + allocated[0];
  }

  static long allocator(long millis) {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    Object[] keep = new Object[256];
    long end = System.nanoTime() + millis * 1_000_000;
    int i = 0;
    while (System.nanoTime() < end) {
      for (int k = 0; k < 100; k++) {
        keep[i++ & 255] = new byte[1024];
      }
      pause(1);
    }
    sink = keep.length;
    return threads.getCurrentThreadAllocatedBytes() - before;
  }
}
