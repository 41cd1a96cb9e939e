package acme.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/** Real classes that the probe tests weave into. */
public final class Workloads {
  public static final class Counter {
    public int ticks;

    public void tick() {
      ticks++;
    }
  }

  public static final class Sleeper {
    public static void nap(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    public static int napThenFail(long millis) {
      nap(millis);
      throw new IllegalStateException("planned");
    }

    public static int outer(long millis) {
      int own = 0;
      for (int i = 0; i < 1000; i++) {
        own += i % 7;
      }
      nap(millis);
      return own;
    }

    public static int fib(int n) {
      if (n < 2) {
        nap(1);
        return n;
      }
      return fib(n - 1) + fib(n - 2);
    }
  }

  public static final class Caller {
    public int helped;

    public int caller() {
      helper();
      helper();
      other();
      return helper();
    }

    public int helper() {
      return ++helped;
    }

    public int other() {
      return helped;
    }
  }

  public static final class Point {
    public final int x;
    public final Point next;

    public Point(int x, Point next) {
      this.x = x;
      this.next = next;
    }
  }

  public static final class Shapes {
    public static Object make() {
      Point p = new Point(1, new Point(2, null));
      int[] ints = new int[10];
      String[] strings = new String[3];
      long[][] grid = new long[2][3];
      return List.of(p, ints, strings, grid);
    }

    public static Object makeOr(boolean fail) {
      if (fail) {
        throw new IllegalArgumentException(new StringBuilder("no").toString());
      }
      return new ArrayList<String>(4);
    }
  }

  public static final class Locks {
    public static final Object LOCK = new Object();
    public static int guarded;
    public int synced;

    public static void guarded() {
      synchronized (LOCK) {
        guarded++;
      }
    }

    public synchronized void syncMethod() {
      synced++;
    }
  }

  public abstract static class Shape {
    public abstract double area();

    public int over(int i) {
      return i;
    }

    public int over(String s) {
      return s.length();
    }

    public native void nativeThing();
  }

  public static final class Holder {
    public IntSupplier supplier(int base) {
      return () -> base + 1;
    }

    public Runnable anonymous(List<String> out) {
      return new Runnable() {
        @Override
        public void run() {
          out.add("ran");
        }
      };
    }

    public final class Inner {
      public int twice(int v) {
        return 2 * v;
      }
    }
  }

  /** Control flow that stresses stack-map frames: branches before super(), handlers, switches. */
  public static class Base {
    public final int size;

    public Base(int size) {
      this.size = size;
    }
  }

  public static final class Tricky extends Base {
    public Tricky(boolean big, String label) {
      super(big ? label.length() * 10 : label.length());
    }

    public int parse(String[] words) {
      int total = 0;
      for (String w : words) {
        try {
          switch (w.length()) {
            case 0:
              continue;
            case 1:
              total += Integer.parseInt(w);
              break;
            default:
              total += new StringBuilder(w).reverse().length();
          }
        } catch (NumberFormatException e) {
          total -= 1;
        } finally {
          total += 100;
        }
      }
      synchronized (this) {
        if (total < 0) {
          throw new IllegalStateException("negative");
        }
      }
      return total;
    }
  }

  /** Loads every workload class, so that it can be probed. */
  public static void load() {
    new Counter().tick();
    new Caller().other();
    Shapes.makeOr(false);
    Locks.guarded();
    new Locks().syncMethod();
    Holder holder = new Holder();
    holder.supplier(1).getAsInt();
    holder.anonymous(new ArrayList<>()).run();
    holder.new Inner().twice(1);
    new Shape() {
      @Override
      public double area() {
        return 0;
      }
    }.over(1);
    Sleeper.nap(0);
    new Tricky(true, "x").parse(new String[] {"1", "", "x", "abc"});
  }

  private Workloads() {}
}
