package dev.bottlenose.instrumentation;

import org.objectweb.asm.MethodVisitor;

/**
 * {@link ProbeKind#WALL_INCLUSIVE}: entry time in a local, elapsed time and a count at every exit,
 * normal or exceptional. A method that calls itself directly gets a per-thread depth guard so that
 * only the outermost activation is recorded; mutual recursion (a calls b calls a) is not guarded.
 */
final class WallInclusiveAdvice extends ProbeAdvice {
  private final boolean recursive;
  private int start;

  WallInclusiveAdvice(MethodVisitor next, int access, String name, String descriptor, int slot, boolean recursive) {
    super(next, access, name, descriptor, slot);
    this.recursive = recursive;
    useCatchAll();
  }

  /** <pre>long start = 0L;</pre> */
  @Override
  void declareLocals() {
    start = zeroLong();
  }

  /** <pre>[Probes.enter(slot);] start = Probes.now();</pre> */
  @Override
  void enter() {
    if (recursive) {
      push(slot);
      invokeRuntime("enter", "(I)V");
    }
    now();
    storeLocal(start);
  }

  /** <pre>Probes.time(slot, start);   // or, guarded: Probes.exit(slot, start);</pre> */
  @Override
  void exit() {
    push(slot);
    loadLocal(start);
    invokeRuntime(recursive ? "exit" : "time", "(IJ)V");
  }
}
