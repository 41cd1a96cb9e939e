package dev.bottlenose.instrumentation;

import acme.workload.BenchTarget;
import acme.workload.Workloads;
import dev.bottlenose.model.MethodRef;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.objectweb.asm.Type;

/**
 * A class or package focus expanded into one call_count probe per concrete method, inserted and removed
 * one probe at a time (the old path) and as one batch each way (insertAll / removeMany): wall time,
 * retransformations, and the VM's time in them, median over repetitions after a warm-up.
 * Run with {@code -Djdk.attach.allowAttachSelf=true}; arguments: repetitions (default 20).
 */
public final class BatchInsertBenchmark {
  private static final int WARMUP = 5;

  public static void main(String[] args) throws Exception {
    int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    ProbeManager manager = TestAgent.manager();
    Workloads.load();
    new BenchTarget();
    List<Class<?>> workloads = new ArrayList<>(List.of(Workloads.class, BenchTarget.class));
    workloads.addAll(List.of(Workloads.class.getDeclaredClasses()));
    workloads.addAll(List.of(Workloads.Holder.class.getDeclaredClasses()));
    focus(manager, "package acme.workload", methods(workloads), repetitions);
    focus(manager, "class java.util.ArrayList", methods(List.of(ArrayList.class)), repetitions);
    if (manager.suppressedErrors() != 0) {
      throw new IllegalStateException("suppressed errors: " + manager.suppressedErrors());
    }
  }

  private static void focus(ProbeManager manager, String name, List<ProbeRequest> requests, int repetitions)
      throws ProbeException {
    long classes = requests.stream().map(r -> r.method().className()).distinct().count();
    System.out.printf("%s: %d methods in %d classes%n", name, requests.size(), classes);
    System.out.printf("  %-12s %-7s %12s %18s %16s%n", "path", "op", "median ms", "retransformations", "VM time ms");
    for (boolean batch : new boolean[] {false, true}) {
      long[][] m = measure(manager, requests, repetitions, batch);
      print(batch ? "batch" : "one by one", "insert", m[0], m[1], m[2]);
      print(batch ? "batch" : "one by one", "remove", m[3], m[4], m[5]);
    }
  }

  /** Per repetition: insert nanos, retransformations, VM nanos, then the same for the removal. */
  private static long[][] measure(ProbeManager manager, List<ProbeRequest> requests, int repetitions, boolean batch)
      throws ProbeException {
    long[][] out = new long[6][repetitions];
    for (int i = -WARMUP; i < repetitions; i++) {
      long[] t = new long[3];
      long[] c = new long[3];
      long[] v = new long[3];
      mark(manager, t, c, v, 0);
      List<Long> ids = batch ? insertBatch(manager, requests) : insertOneByOne(manager, requests);
      mark(manager, t, c, v, 1);
      if (batch) {
        manager.removeMany(ids).forEach(o -> check(o.ok(), o.failure()));
      } else {
        for (long id : ids) {
          manager.remove(id);
        }
      }
      mark(manager, t, c, v, 2);
      for (int op = 0; op < 2 && i >= 0; op++) {
        out[op * 3][i] = t[op + 1] - t[op];
        out[op * 3 + 1][i] = c[op + 1] - c[op];
        out[op * 3 + 2][i] = v[op + 1] - v[op];
      }
    }
    return out;
  }

  private static void mark(ProbeManager manager, long[] t, long[] c, long[] v, int at) {
    c[at] = manager.retransformations();
    v[at] = manager.cost().retransformNanos();
    t[at] = System.nanoTime();
  }

  private static List<Long> insertOneByOne(ProbeManager manager, List<ProbeRequest> requests) throws ProbeException {
    List<Long> ids = new ArrayList<>();
    for (ProbeRequest r : requests) {
      ids.add(manager.insert(r).probeId());
    }
    return ids;
  }

  private static List<Long> insertBatch(ProbeManager manager, List<ProbeRequest> requests) {
    List<Long> ids = new ArrayList<>();
    for (InsertOutcome o : manager.insertAll(requests)) {
      check(o.ok(), o.failure());
      ids.add(o.result().probeId());
    }
    return ids;
  }

  private static void check(boolean ok, ProbeException failure) {
    if (!ok) {
      throw new IllegalStateException(failure.getMessage(), failure);
    }
  }

  /** One call_count request per method with code (and constructor) of {@code classes}. */
  private static List<ProbeRequest> methods(List<Class<?>> classes) {
    List<ProbeRequest> requests = new ArrayList<>();
    for (Class<?> c : classes) {
      for (Method m : c.getDeclaredMethods()) {
        if (!Modifier.isAbstract(m.getModifiers()) && !Modifier.isNative(m.getModifiers())) {
          requests.add(request(c, m.getName(), Type.getMethodDescriptor(m)));
        }
      }
      for (Constructor<?> k : c.getDeclaredConstructors()) {
        requests.add(request(c, "<init>", Type.getConstructorDescriptor(k)));
      }
    }
    return requests;
  }

  private static ProbeRequest request(Class<?> c, String name, String descriptor) {
    return new ProbeRequest(new MethodRef(c.getName(), name, descriptor), ProbeKind.CALL_COUNT, null, "benchmark");
  }

  private static void print(String path, String op, long[] nanos, long[] counts, long[] vmNanos) {
    System.out.printf("  %-12s %-7s %12.2f %18d %16.2f%n", path, op, median(nanos) / 1e6, median(counts),
        median(vmNanos) / 1e6);
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private BatchInsertBenchmark() {}
}
