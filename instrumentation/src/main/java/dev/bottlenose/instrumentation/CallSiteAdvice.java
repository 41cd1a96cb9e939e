package dev.bottlenose.instrumentation;

import dev.bottlenose.model.MethodRef;
import org.objectweb.asm.MethodVisitor;

/**
 * {@link ProbeKind#CALL_SITE}: counts and times every invoke instruction of the method whose owner
 * and name (and descriptor, when given) match the callee. A call that ends by throwing is not
 * recorded.
 */
final class CallSiteAdvice extends ProbeAdvice {
  private final MethodRef callee;
  private int callStart;

  CallSiteAdvice(MethodVisitor next, int access, String name, String descriptor, int slot, MethodRef callee) {
    super(next, access, name, descriptor, slot);
    this.callee = callee;
  }

  /** <pre>long callStart = 0L;</pre> */
  @Override
  void declareLocals() {
    callStart = zeroLong();
  }

  @Override
  public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
    if (!matches(owner, name, descriptor)) {
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
      return;
    }
    // callStart = Probes.now();
    now();
    storeLocal(callStart);
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    // Probes.time(slot, callStart);
    push(slot);
    loadLocal(callStart);
    invokeRuntime("time", "(IJ)V");
  }

  private boolean matches(String owner, String name, String descriptor) {
    return owner.equals(callee.internalClassName())
        && name.equals(callee.methodName())
        && (callee.descriptor() == null || descriptor.equals(callee.descriptor()));
  }
}
