package dev.bottlenose.daemon.it.workload;

import java.io.OutputStream;

/**
 * The target of the daemon's ITs, run relocated to the package {@code itworkload}: a thread calling
 * {@link #batch} (which calls {@link #step}) in a loop, and an abstract and a native method to probe by
 * mistake. Exits when stdin closes.
 */
public final class ItWorkload {
  static volatile long sink;

  private ItWorkload() {}

  public static void main(String[] args) throws Exception {
    Thread worker = new Thread(ItWorkload::loop, "it-worker");
    worker.setDaemon(true);
    worker.start();
    System.out.println("ready");
    System.out.flush();
    System.in.transferTo(OutputStream.nullOutputStream());
    System.exit(0);
  }

  static long step(int n) {
    long x = n;
    for (int i = 0; i < 200; i++) {
      x = x * 31 + i;
    }
    return x;
  }

  static native long nativeClock();

  abstract static class Shape {
    abstract double area();
  }

  static final class Square extends Shape {
    @Override
    double area() {
      return 4;
    }
  }

  private static void loop() {
    Shape shape = new Square();
    for (int n = 0; ; n += 1000) {
      sink += batch(n) + (long) shape.area();
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  static long batch(int from) {
    long x = 0;
    for (int i = 0; i < 1000; i++) {
      x += step(from + i);
    }
    return x;
  }
}
