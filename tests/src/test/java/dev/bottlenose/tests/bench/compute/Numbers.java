package dev.bottlenose.tests.bench.compute;

/** Integer kernels, from tiny and called thousands of times per unit (gcd, mix) to a sieve called once. */
final class Numbers {
  private Numbers() {
  }

  static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    return x;
  }

  static boolean isPrime(long n) {
    if (n < 2) {
      return false;
    }
    for (long d = 2; d * d <= n; d++) {
      if (n % d == 0) {
        return false;
      }
    }
    return true;
  }

  static int sieveCount(int limit) {
    boolean[] composite = new boolean[limit + 1];
    int count = 0;
    for (int i = 2; i <= limit; i++) {
      if (!composite[i]) {
        count++;
        for (long j = (long) i * i; j <= limit; j += i) {
          composite[(int) j] = true;
        }
      }
    }
    return count;
  }

  static long collatzSteps(long n) {
    long steps = 0;
    while (n > 1) {
      n = (n & 1) == 0 ? n >>> 1 : 3 * n + 1;
      steps++;
    }
    return steps;
  }

  static long powMod(long base, long exp, long mod) {
    long result = 1;
    base %= mod;
    while (exp > 0) {
      if ((exp & 1) == 1) {
        result = result * base % mod;
      }
      base = base * base % mod;
      exp >>= 1;
    }
    return result;
  }
}
