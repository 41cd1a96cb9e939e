package acme.workload;

import java.util.function.IntUnaryOperator;

/** The method the overhead benchmark weaves probes into: a few nanoseconds of arithmetic. */
public final class BenchTarget implements IntUnaryOperator {
  @Override
  public int applyAsInt(int x) {
    return x * 31 + (x >>> 3);
  }
}
