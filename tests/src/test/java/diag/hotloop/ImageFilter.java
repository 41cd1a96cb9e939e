package diag.hotloop;

import diag.Run;
import java.util.List;

/**
 * Planted: CPU-bound in one method. A 3×3 box blur over a 1024×768 image, pass after pass, on one
 * thread; {@link #blur} holds nearly all of the program's CPU time. Known answer: cpu_bound at
 * {@code diag.hotloop.ImageFilter.blur}.
 */
public final class ImageFilter {
  static final int W = 1024;
  static final int H = 768;
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    Run.workers(List.of(new Run.Worker("filter", ImageFilter::work)));
  }

  static void work() {
    int[] a = new int[W * H];
    int[] b = new int[W * H];
    for (int i = 0; i < a.length; i++) {
      a[i] = (i * 2654435761L) > 0 ? i & 0xff : (i >> 3) & 0xff;
    }
    while (Run.running()) {
      blur(a, b);
      int[] t = a;
      a = b;
      b = t;
      sink += a[W + 1];
    }
  }

  static void blur(int[] in, int[] out) {
    for (int y = 1; y < H - 1; y++) {
      int row = y * W;
      for (int x = 1; x < W - 1; x++) {
        int i = row + x;
        int s = in[i - W - 1] + in[i - W] + in[i - W + 1] + in[i - 1] + in[i] + in[i + 1]
            + in[i + W - 1] + in[i + W] + in[i + W + 1];
        out[i] = (s * 7282) >>> 16;
      }
    }
  }
}
