package dev.bottlenose.instrumentation;

import org.objectweb.asm.MethodVisitor;

/** {@link ProbeKind#CALL_COUNT}: one count at every entry. */
final class CallCountAdvice extends ProbeAdvice {
  CallCountAdvice(MethodVisitor next, int access, String name, String descriptor, int slot) {
    super(next, access, name, descriptor, slot);
  }

  /** <pre>Probes.count(slot);</pre> */
  @Override
  void enter() {
    push(slot);
    invokeRuntime("count", "(I)V");
  }
}
