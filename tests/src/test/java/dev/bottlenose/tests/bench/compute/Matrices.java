package dev.bottlenose.tests.bench.compute;

/** Small dense matrices of doubles. */
final class Matrices {
  private Matrices() {
  }

  static double[][] random(int n, long seed) {
    double[][] m = new double[n][n];
    long x = seed;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        x = Numbers.mix(x + j);
        m[i][j] = (x & 0xFFFF) / 65536.0;
      }
    }
    return m;
  }

  static double[][] multiply(double[][] a, double[][] b) {
    int n = a.length;
    double[][] c = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < n; k++) {
        double aik = a[i][k];
        for (int j = 0; j < n; j++) {
          c[i][j] += aik * b[k][j];
        }
      }
    }
    return c;
  }

  static double[][] transpose(double[][] a) {
    int n = a.length;
    double[][] t = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        t[j][i] = a[i][j];
      }
    }
    return t;
  }

  static double trace(double[][] a) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i][i];
    }
    return s;
  }

  static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
