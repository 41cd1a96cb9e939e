package dev.bottlenose.instrumentation;

import org.objectweb.asm.MethodVisitor;

/**
 * {@link ProbeKind#MONITOR}: counts every {@code monitorenter} and times how long acquiring it
 * took. A {@code synchronized} method acquires its monitor before its first instruction, and the
 * flag cannot be changed by retransformation, so for such a method entries are counted at method
 * entry but the time blocked is not measurable here (the agent takes it from JFR).
 */
final class MonitorAdvice extends ProbeAdvice {
  private final boolean synchronizedMethod;
  private int acquireStart;

  MonitorAdvice(MethodVisitor next, int access, String name, String descriptor, int slot) {
    super(next, access, name, descriptor, slot);
    this.synchronizedMethod = (access & ACC_SYNCHRONIZED) != 0;
  }

  /** <pre>long acquireStart = 0L;</pre> */
  @Override
  void declareLocals() {
    acquireStart = zeroLong();
  }

  /** <pre>Probes.count(slot);   // synchronized methods only</pre> */
  @Override
  void enter() {
    if (synchronizedMethod) {
      push(slot);
      invokeRuntime("count", "(I)V");
    }
  }

  @Override
  public void visitInsn(int opcode) {
    if (opcode != MONITORENTER) {
      super.visitInsn(opcode);
      return;
    }
    // acquireStart = Probes.now();   stack: lock
    now();
    storeLocal(acquireStart);
    super.visitInsn(opcode);
    // Probes.time(slot, acquireStart);
    push(slot);
    loadLocal(acquireStart);
    invokeRuntime("time", "(IJ)V");
  }
}
