package dev.bottlenose.metrics;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Hierarchy;

/**
 * Checks a {@code when} condition against what the accumulator's sources can filter on: /Code and
 * /Threads for events (only where the event carries a stack or a thread), /SyncObjects for blocking
 * events and /IO for file and socket events (the object the event is about), and for bytecode probes one
 * calling method ({@code caller:/Code/…/method}, a call-site probe).
 */
final class ConditionChecker {
  private final Checker checker;
  private final Accumulator acc;
  private final String what;

  ConditionChecker(Checker checker, Accumulator acc, String what) {
    this.checker = checker;
    this.acc = acc;
    this.what = what;
  }

  void check(Ast.Cond c) {
    if (acc.isProbe()) {
      checkProbe(c);
      return;
    }
    if (c instanceof Ast.Literal l) {
      literal(l);
    } else if (c instanceof Ast.Not n) {
      check(n.part());
    } else {
      (c instanceof Ast.And a ? a.parts() : ((Ast.Or) c).parts()).forEach(this::check);
    }
  }

  private void literal(Ast.Literal l) {
    Hierarchy h = l.pattern().hierarchy();
    boolean allowed = acc.allowed().containsKey(h) && (h == Hierarchy.CODE || h == Hierarchy.THREADS || h == acc.objectHierarchy());
    if (!allowed) {
      checker.error(l.at(), what + " can be constrained only by " + filterable() + ", not by " + h.root());
    } else if (h != Hierarchy.CODE && l.mode() != null) {
      checker.error(l.at(), "a constraint method (" + l.mode().word() + ":) applies only to /Code, not " + h.root());
    } else if (h == Hierarchy.CODE && l.mode() == ConstraintMode.CALLER && acc.events().stream().anyMatch(Event::matchesMethodItself)) {
      checker.error(l.at(), "jit_compile and deopt match the compiled method itself; use exclusive: or inclusive:, not caller:");
    } else if (h == Hierarchy.CODE && l.pattern().depth() > 3 && !l.pattern().segments().get(3).equals("**")) {
      checker.error(l.at(), "a /Code constraint names at most a method; give an execution form with the 'form' clause, not in " + l.pattern());
    }
    checkWildcards(l);
  }

  private String filterable() {
    java.util.List<String> roots = new java.util.ArrayList<>();
    for (Hierarchy h : new Hierarchy[] {Hierarchy.CODE, Hierarchy.THREADS, acc.objectHierarchy()}) {
      if (h != null && acc.allowed().containsKey(h)) {
        roots.add(h.root().toString());
      }
    }
    if (roots.isEmpty()) {
      return "nothing (it has no code or thread)";
    }
    String last = roots.remove(roots.size() - 1);
    return roots.isEmpty() ? last : String.join(", ", roots) + " and " + last;
  }

  private void checkWildcards(Ast.Literal l) {
    for (String segment : l.pattern().segments()) {
      if (segment.contains("**") && !segment.equals("**")) {
        checker.error(l.at(), "'**' stands for any number of whole segments; write it alone between '/' in " + l.pattern());
        return;
      }
    }
  }

  private void checkProbe(Ast.Cond c) {
    boolean callSite = acc.word().equals("calls") || acc.word().equals("wall_time");
    if (callSite && c instanceof Ast.Literal l && l.mode() == ConstraintMode.CALLER && l.pattern().hierarchy() == Hierarchy.CODE
        && l.pattern().depth() == 3 && !l.pattern().toString().contains("*")) {
      return;
    }
    int at = c instanceof Ast.Literal l ? l.at() : firstLiteral(c);
    checker.error(at, what + " is measured by a bytecode probe in the focus method; "
        + (callSite ? "'when' may only name one calling method, as caller:/Code/<package>/<class>/<method> (a call-site probe)" : "it takes no 'when' condition"));
  }

  private static int firstLiteral(Ast.Cond c) {
    if (c instanceof Ast.Literal l) {
      return l.at();
    }
    if (c instanceof Ast.Not n) {
      return firstLiteral(n.part());
    }
    return firstLiteral((c instanceof Ast.And a ? a.parts() : ((Ast.Or) c).parts()).get(0));
  }
}
