package dev.bottlenose.tests.workloads;

/**
 * Method-call overhead planted: three threads make tiny calls through two virtual call sites that see
 * three receiver types, so the JIT can neither inline nor devirtualise it. {@link Mix} takes three calls
 * in four (below the 90% at which C2 would inline the major receiver behind a type check), so its
 * {@code apply} is the method whose calls cost the most. Runs until standard input says {@code exit}.
 */
public final class MegamorphicWorkload {
  static volatile boolean running = true;
  static volatile long sink;

  abstract static class Step {
    abstract long apply(long x);
  }

  static final class Mix extends Step {
    @Override
    long apply(long x) {
      return (x * 31 + 7) ^ (x >>> 11);
    }
  }

  static final class Shift extends Step {
    @Override
    long apply(long x) {
      return (x ^ (x >>> 3)) * 0x9E3779B97F4A7C15L;
    }
  }

  static final class Add extends Step {
    @Override
    long apply(long x) {
      return (x + 0x9E3779B9L) ^ (x << 7);
    }
  }

  public static void main(String[] args) throws Exception {
    ExitCommand.onExit(() -> running = false);
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    Thread second = new Thread(() -> sink += callMany(), "caller-1");
    Thread third = new Thread(() -> sink += callMany(), "caller-2");
    second.start();
    third.start();
    sink += callMany();
    second.join();
    third.join();
  }

  /** Runs {@link #steps} batch after batch until told to exit. */
  static long callMany() {
    Step[] steps = {new Mix(), new Mix(), new Shift(), new Mix(), new Mix(), new Add(), new Mix(), new Mix()};
    long x = 1;
    while (running) {
      x = steps(steps, x);
    }
    return x;
  }

  /**
   * One batch of calls through two megamorphic call sites, and a little arithmetic of its own after them:
   * JFR cannot walk a stack whose top is in the VM's dispatch stub or a callee's frame set-up, so it loses
   * most execution samples of this loop. The daemon makes up for lost samples with the threads' CPU time,
   * but only up to ten times a sample's period; without the arithmetic JFR loses more than that. The batch
   * returns, as a server's request handling does, so code the JIT had to throw away (inserting a probe
   * retransforms a class) is compiled again at the next call rather than left running where it was.
   */
  static long steps(Step[] steps, long seed) {
    long x = seed;
    for (int i = 0; i < 65_536; i++) {
      x = steps[i & 7].apply(x);
      x = steps[(i + 3) & 7].apply(x);
      x = (x ^ (x >>> 29)) * 0xBF58476D1CE4E5B9L;
    }
    return x;
  }
}
