package dev.bottlenose.tests.bench.compute;

import dev.bottlenose.tests.bench.WorkloadDriver;

/**
 * A CPU-bound benchmark target with many methods of very different sizes: two workers repeat one unit of
 * arithmetic, sorting, matrix and string work (about a millisecond of CPU). Some methods are called thousands
 * of times per unit ({@code gcd}, {@code mix}, {@code swap}), others once; so a search that refines down to
 * methods meets both cheap and expensive probes. Driven by {@link WorkloadDriver}.
 */
public final class ComputeWorkload {
  private ComputeWorkload() {
  }

  public static void main(String[] args) throws Exception {
    WorkloadDriver.run("compute", 2, ComputeWorkload::unit);
  }

  static long unit(long seed) {
    return numbers(seed) ^ arrays(seed) ^ matrices(seed) ^ text(seed);
  }

  static long numbers(long seed) {
    long acc = 0;
    for (int i = 1; i <= 400; i++) {
      acc += Numbers.gcd(Numbers.mix(seed + i) & 0xFFFFF, i * 37L);
      acc += Numbers.collatzSteps((seed + i) & 0x3FF | 1);
    }
    for (long n = 10_000 + (seed & 63); n < 10_200; n++) {
      acc += Numbers.isPrime(n) ? n : 0;
    }
    return acc + Numbers.sieveCount(4_000) + Numbers.powMod(seed & 0xFFFF, 65_537, 1_000_000_007L);
  }

  static long arrays(long seed) {
    int[] small = new int[64];
    Sorting.fill(small, seed);
    Sorting.insertionSort(small);
    int[] large = new int[1_024];
    Sorting.fill(large, seed + 1);
    Sorting.heapSort(large);
    long acc = 0;
    for (int i = 0; i < 256; i++) {
      acc += Sorting.binarySearch(large, (int) Numbers.mix(seed + i));
    }
    return acc + small[0] + large[large.length - 1];
  }

  static long matrices(long seed) {
    double[][] a = Matrices.random(20, seed);
    double[][] b = Matrices.transpose(Matrices.random(20, seed + 7));
    double[][] c = Matrices.multiply(a, b);
    return (long) (Matrices.trace(c) * 1000) + (long) Matrices.dot(c[0], c[1]);
  }

  static long text(long seed) {
    String s = Text.words(seed, 120);
    return Text.vowels(s) + Text.sumNumbers(s) + Text.reverseWords(s).length();
  }
}
