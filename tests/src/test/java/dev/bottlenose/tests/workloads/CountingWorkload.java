package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A target program that knows its own answer: {@link #step} counts its calls and times itself, so a
 * test can compare what the probes report with the truth. Driven line by line on standard input:
 * {@code run N} calls {@code step} N times and prints {@code done calls=… nanos=… result=…};
 * {@code exit} ends it. It prints {@code ready} once started.
 */
public final class CountingWorkload {
  static long calls;
  static long selfNanos;
  /** Loaded at start so that probe requests on an abstract and on a native method can be refused. */
  static final Shape UNIT = new Square();

  abstract static class Shape {
    abstract double area();
  }

  static final class Square extends Shape {
    @Override
    double area() {
      return 1;
    }
  }

  /** Never called; here to be refused. */
  static native long nativeClock();

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.trim().split("\\s+");
      if (words[0].equals("run")) {
        run(Integer.parseInt(words[1]));
      } else if (words[0].equals("exit")) {
        return;
      }
    }
  }

  private static void run(int n) {
    calls = 0;
    selfNanos = 0;
    long result = 0;
    for (int i = 0; i < n; i++) {
      result += step(i);
    }
    System.out.println("done calls=" + calls + " nanos=" + selfNanos + " result=" + result);
    System.out.flush();
  }

  /** About 20 µs of arithmetic; counts and times itself. */
  static long step(int seed) {
    long t0 = System.nanoTime();
    calls++;
    long x = seed;
    for (int i = 0; i < 4000; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      x ^= x >>> 29;
    }
    long r = x & 0xff;
    selfNanos += System.nanoTime() - t0;
    return r;
  }

  private CountingWorkload() {}
}
