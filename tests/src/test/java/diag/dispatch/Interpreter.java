package diag.dispatch;

import diag.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Planted: method-call overhead. A tiny expression interpreter evaluates a tree of five node types
 * through one virtual call, {@code Node.eval}, millions of times a second on two threads; every node does
 * almost nothing, so the calls themselves are the cost. Known answer: method_call_overhead (below
 * cpu_bound) in {@code diag.dispatch}.
 */
public final class Interpreter {
  static volatile long sink;

  interface Node {
    long eval(long x);
  }

  record Const(long v) implements Node {
    public long eval(long x) {
      return v;
    }
  }

  record Var() implements Node {
    public long eval(long x) {
      return x;
    }
  }

  record Add(Node l, Node r) implements Node {
    public long eval(long x) {
      return l.eval(x) + r.eval(x);
    }
  }

  record Mul(Node l, Node r) implements Node {
    public long eval(long x) {
      return l.eval(x) * r.eval(x);
    }
  }

  record Xor(Node l, Node r) implements Node {
    public long eval(long x) {
      return l.eval(x) ^ r.eval(x);
    }
  }

  public static void main(String[] args) throws Exception {
    List<Run.Worker> workers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      long seed = i;
      workers.add(new Run.Worker("eval-" + i, () -> evaluate(seed)));
    }
    Run.workers(workers);
  }

  static void evaluate(long seed) {
    Random random = new Random(seed);
    List<Node> programs = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      programs.add(tree(random, 7));
    }
    long x = 1;
    while (Run.running()) {
      for (Node p : programs) {
        x = p.eval(x) | 1;
      }
      sink = x;
    }
  }

  static Node tree(Random r, int depth) {
    if (depth == 0 || r.nextInt(8) == 0) {
      return r.nextBoolean() ? new Var() : new Const(r.nextInt(100));
    }
    return switch (r.nextInt(3)) {
      case 0 -> new Add(tree(r, depth - 1), tree(r, depth - 1));
      case 1 -> new Mul(tree(r, depth - 1), tree(r, depth - 1));
      default -> new Xor(tree(r, depth - 1), tree(r, depth - 1));
    };
  }
}
