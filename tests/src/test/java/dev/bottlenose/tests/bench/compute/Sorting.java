package dev.bottlenose.tests.bench.compute;

/** Array kernels: fills, three sorts and a search. */
final class Sorting {
  private Sorting() {
  }

  static void fill(int[] a, long seed) {
    long x = seed;
    for (int i = 0; i < a.length; i++) {
      x = Numbers.mix(x + i);
      a[i] = (int) x;
    }
  }

  static void insertionSort(int[] a) {
    for (int i = 1; i < a.length; i++) {
      int v = a[i];
      int j = i - 1;
      while (j >= 0 && a[j] > v) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = v;
    }
  }

  static void heapSort(int[] a) {
    for (int i = a.length / 2 - 1; i >= 0; i--) {
      siftDown(a, i, a.length);
    }
    for (int end = a.length - 1; end > 0; end--) {
      swap(a, 0, end);
      siftDown(a, 0, end);
    }
  }

  static void siftDown(int[] a, int i, int n) {
    while (true) {
      int largest = i;
      int l = 2 * i + 1;
      int r = l + 1;
      if (l < n && a[l] > a[largest]) {
        largest = l;
      }
      if (r < n && a[r] > a[largest]) {
        largest = r;
      }
      if (largest == i) {
        return;
      }
      swap(a, i, largest);
      i = largest;
    }
  }

  static void swap(int[] a, int i, int j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }

  static int binarySearch(int[] sorted, int key) {
    int lo = 0;
    int hi = sorted.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < key) {
        lo = mid + 1;
      } else if (sorted[mid] > key) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }
}
