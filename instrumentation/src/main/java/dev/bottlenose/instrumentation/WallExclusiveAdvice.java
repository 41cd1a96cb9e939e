package dev.bottlenose.instrumentation;

import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * {@link ProbeKind#WALL_EXCLUSIVE}: inclusive time minus the time spent inside every invoke
 * instruction of the method, so only the method's own code is counted. A call that ends by throwing
 * is not subtracted (its time counts as the method's own).
 */
final class WallExclusiveAdvice extends ProbeAdvice {
  private int start;
  private int excluded;
  private int callStart;
  private int calls;
  private boolean entered;

  WallExclusiveAdvice(MethodVisitor next, int access, String name, String descriptor, int slot) {
    super(next, access, name, descriptor, slot);
    useCatchAll();
  }

  /** <pre>long start = 0L, excluded = 0L, callStart = 0L; int calls = 0;</pre> */
  @Override
  void declareLocals() {
    start = zeroLong();
    excluded = zeroLong();
    callStart = zeroLong();
    calls = zeroInt();
  }

  /** <pre>start = Probes.now();</pre> */
  @Override
  void enter() {
    now();
    storeLocal(start);
    entered = true;
  }

  /** <pre>Probes.exclusive(slot, start, excluded, calls);</pre> */
  @Override
  void exit() {
    push(slot);
    loadLocal(start);
    loadLocal(excluded);
    loadLocal(calls);
    invokeRuntime("exclusive", "(IJJI)V");
  }

  @Override
  public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
    boolean timed = entered && !isRuntimeCall(owner);
    beforeCall(timed);
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    afterCall(timed);
  }

  @Override
  public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
    beforeCall(entered);
    super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    afterCall(entered);
  }

  /** <pre>callStart = Probes.now();</pre> */
  private void beforeCall(boolean timed) {
    if (timed) {
      now();
      storeLocal(callStart);
    }
  }

  /** <pre>excluded += Probes.now() - callStart; calls++;</pre> */
  private void afterCall(boolean timed) {
    if (timed) {
      loadLocal(excluded);
      now();
      loadLocal(callStart);
      math(SUB, Type.LONG_TYPE); // stack: excluded, elapsed
      math(ADD, Type.LONG_TYPE); // stack: excluded + elapsed
      storeLocal(excluded);
      iinc(calls, 1);
    }
  }
}
