package dev.bottlenose.tests.workloads;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A program that has warmed up before anyone attaches: two threads parse, aggregate, sort and format records with
 * the JDK's strings, regular expressions, maps, streams and big integers, the same work over and over, so the JIT
 * has compiled a few hundred methods and then has nothing new to compile. It prints {@code ready} once it has run
 * {@code -Dwarm.seconds} (default 5) and its JIT has then compiled nothing for a second (at most 25 s in all, on a
 * slow machine), and runs on until standard input says {@code exit}.
 */
public final class WarmJdkWorkload {
  private static final Pattern FIELD = Pattern.compile("(\\w+)=(-?\\d+)");
  static volatile boolean running = true;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    ExitCommand.onExit(() -> running = false);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      int seed = t;
      Thread worker = new Thread(() -> {
        long round = seed;
        while (running) {
          sink += round(round++);
        }
      }, "worker-" + t);
      worker.start();
      threads.add(worker);
    }
    Thread.sleep(Long.getLong("warm.seconds", 5) * 1000);
    awaitJitQuiet(Duration.ofSeconds(1), Duration.ofSeconds(20));
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    for (Thread t : threads) {
      t.join();
    }
  }

  /** Waits until the JIT's total compiling time has not grown for {@code quiet}, or {@code atMost} has passed. */
  private static void awaitJitQuiet(Duration quiet, Duration atMost) throws InterruptedException {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    long end = System.nanoTime() + atMost.toNanos();
    long last = jit.getTotalCompilationTime();
    long quietSince = System.nanoTime();
    while (System.nanoTime() - quietSince < quiet.toNanos() && System.nanoTime() < end) {
      Thread.sleep(100);
      long now = jit.getTotalCompilationTime();
      if (now != last) {
        last = now;
        quietSince = System.nanoTime();
      }
    }
  }

  /** One record batch: parsed, summed per key, sorted and rendered. */
  static long round(long seed) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      text.append("key").append((seed + i * 7) % 23).append('=').append((seed * 31 + i) % 1000 - 500).append(';');
    }
    Map<String, Long> sums = new HashMap<>();
    Matcher m = FIELD.matcher(text);
    while (m.find()) {
      sums.merge(m.group(1), Long.parseLong(m.group(2)), Long::sum);
    }
    TreeMap<String, Long> sorted = new TreeMap<>(sums);
    String rendered = sorted.entrySet().stream().filter(e -> e.getValue() != 0)
        .map(e -> String.format("%s:%d", e.getKey(), e.getValue())).collect(Collectors.joining(","));
    BigInteger product = BigInteger.ONE;
    for (long v : sorted.values()) {
      product = product.multiply(BigInteger.valueOf(Math.abs(v) + 1)).mod(BigInteger.valueOf(1_000_000_007L));
    }
    return rendered.length() + product.longValue() + String.join("|", text.toString().split(";", 10)).hashCode();
  }

  private WarmJdkWorkload() {}
}
