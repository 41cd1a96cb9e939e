package dev.bottlenose.instrumentation;

import acme.workload.Workloads;
import dev.bottlenose.model.MethodRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

/**
 * Time to insert and to remove one probe in one class of this running JVM (self-attached), as the
 * caller of {@link ProbeManager} sees it: median and spread over many repetitions after a warm-up.
 * Run with {@code -Djdk.attach.allowAttachSelf=true}; arguments: repetitions (default 200).
 */
public final class InsertRemoveBenchmark {
  private static final int WARMUP = 30;

  public static void main(String[] args) throws Exception {
    int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    ProbeManager manager = TestAgent.manager();
    Workloads.load();
    new HashMap<String, String>().put("a", "b");
    List<MethodRef> targets = List.of(
        new MethodRef(Workloads.Counter.class.getName(), "tick", null),
        new MethodRef(ArrayList.class.getName(), "add", "(Ljava/lang/Object;)Z"),
        new MethodRef(HashMap.class.getName(), "put", null));
    System.out.printf("%-40s %-6s %10s %10s %10s %10s%n", "class.method", "op", "median ms", "p10 ms", "p90 ms", "max ms");
    for (MethodRef target : targets) {
      long[][] times = measure(manager, target, repetitions);
      print(target, "insert", times[0]);
      print(target, "remove", times[1]);
    }
    if (manager.suppressedErrors() != 0) {
      throw new IllegalStateException("suppressed errors: " + manager.suppressedErrors());
    }
  }

  private static long[][] measure(ProbeManager manager, MethodRef target, int repetitions) throws ProbeException {
    long[] inserts = new long[repetitions];
    long[] removes = new long[repetitions];
    for (int i = -WARMUP; i < repetitions; i++) {
      long start = System.nanoTime();
      long id = manager.insert(new ProbeRequest(target, ProbeKind.WALL_INCLUSIVE, null, "benchmark")).probeId();
      long inserted = System.nanoTime();
      manager.remove(id);
      long removed = System.nanoTime();
      if (i >= 0) {
        inserts[i] = inserted - start;
        removes[i] = removed - inserted;
      }
    }
    return new long[][] {inserts, removes};
  }

  private static void print(MethodRef target, String op, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf("%-40s %-6s %10.2f %10.2f %10.2f %10.2f%n",
        target.className().replaceFirst(".*\\.", "") + "." + target.methodName(), op,
        ms(sorted[sorted.length / 2]), ms(sorted[sorted.length / 10]), ms(sorted[sorted.length * 9 / 10]), ms(sorted[sorted.length - 1]));
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private InsertRemoveBenchmark() {}
}
