package dev.bottlenose.instrumentation;

import acme.workload.BenchTarget;
import dev.bottlenose.model.MethodRef;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cost of one probe in JIT-compiled code: the same small method, loaded three times in its own
 * class loader from the same original bytes, once as is, once with a counter ({@code CALL_COUNT})
 * and once with a timer ({@code WALL_INCLUSIVE}) woven in by the {@link Weaver}. The probe's cost is
 * the difference to {@link #baseline}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProbeOverheadBenchmark {
  private IntUnaryOperator plain;
  private IntUnaryOperator counted;
  private IntUnaryOperator timed;
  private int x;

  @Setup
  public void load() throws Exception {
    byte[] original = originalBytes();
    SlotAllocator slots = new SlotAllocator();
    plain = instance(original);
    counted = instance(Weaver.weave(original, List.of(probe(ProbeKind.CALL_COUNT, slots))));
    timed = instance(Weaver.weave(original, List.of(probe(ProbeKind.WALL_INCLUSIVE, slots))));
  }

  @Benchmark
  public int baseline() {
    return plain.applyAsInt(x++);
  }

  @Benchmark
  public int counter() {
    return counted.applyAsInt(x++);
  }

  @Benchmark
  public int timer() {
    return timed.applyAsInt(x++);
  }

  /** Reference: the two clock reads any entry/exit timer needs, and nothing else. */
  @Benchmark
  public long clockPair() {
    long start = System.nanoTime();
    return System.nanoTime() - start;
  }

  private static ActiveProbe probe(ProbeKind kind, SlotAllocator slots) {
    MethodRef method = new MethodRef(BenchTarget.class.getName(), "applyAsInt", "(I)I");
    return new ActiveProbe(1, method, kind, null, "benchmark", slots.allocate(), null);
  }

  private static byte[] originalBytes() throws IOException {
    try (InputStream in = BenchTarget.class.getResourceAsStream("BenchTarget.class")) {
      return in.readAllBytes();
    }
  }

  private static IntUnaryOperator instance(byte[] bytes) throws ReflectiveOperationException {
    Class<?> c = new OneClassLoader().define(bytes);
    return (IntUnaryOperator) c.getDeclaredConstructor().newInstance();
  }

  private static final class OneClassLoader extends ClassLoader {
    OneClassLoader() {
      super(ProbeOverheadBenchmark.class.getClassLoader());
    }

    Class<?> define(byte[] bytes) {
      return defineClass(BenchTarget.class.getName(), bytes, 0, bytes.length);
    }
  }
}
