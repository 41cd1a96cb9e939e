package dev.bottlenose.instrumentation;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;
import org.objectweb.asm.commons.Method;

/**
 * Common ground of the probe visitors: calls into the probe runtime, locals declared at the very
 * start of the method (so every stack-map frame may list them), and an optional catch-all handler
 * around the body that runs the exit probe for exceptional exits and rethrows.
 */
abstract class ProbeAdvice extends AdviceAdapter {
  static final String RUNTIME = "dev/bottlenose/probe/Probes";
  private static final Type PROBES = Type.getObjectType(RUNTIME);
  private static final Type THROWABLE = Type.getType(Throwable.class);

  final int slot;
  private final Label bodyStart = new Label();
  private final Label handler = new Label();
  private boolean localsDeclared;
  private boolean catchAll;

  ProbeAdvice(MethodVisitor next, int access, String name, String descriptor, int slot) {
    super(Opcodes.ASM9, next, access, name, descriptor);
    this.slot = slot;
  }

  /** Declares and zeroes this visitor's locals; runs before any original instruction. */
  void declareLocals() {}

  /** Code at method entry (constructors: after the super or this call). */
  void enter() {}

  /** Code before every normal return and, with a catch-all, on every exceptional exit. */
  void exit() {}

  /** Wraps the body from {@link #enter()} on in a handler that calls {@link #exit()} and rethrows. */
  void useCatchAll() {
    catchAll = true;
  }

  static boolean isRuntimeCall(String owner) {
    return RUNTIME.equals(owner);
  }

  @Override
  public void visitCode() {
    super.visitCode();
    declareOnce();
  }

  @Override
  protected void onMethodEnter() {
    declareOnce();
    enter();
    if (catchAll) {
      mark(bodyStart);
    }
  }

  @Override
  protected void onMethodExit(int opcode) {
    if (opcode != ATHROW || !catchAll) {
      exit();
    }
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    if (catchAll && localsDeclared) {
      emitHandler();
    }
    super.visitMaxs(maxStack, maxLocals);
  }

  /**
   * <pre>
   * } catch (Throwable t) { exit(); throw t; }
   * </pre>
   */
  private void emitHandler() {
    Label bodyEnd = new Label();
    mark(bodyEnd);
    mv.visitTryCatchBlock(bodyStart, bodyEnd, handler, null);
    mark(handler);
    // frame: no original locals are needed here; the sorter adds this visitor's own locals
    visitFrame(Opcodes.F_NEW, 0, new Object[0], 1, new Object[] {THROWABLE.getInternalName()});
    exit(); // stack: throwable
    throwException();
  }

  private void declareOnce() {
    if (!localsDeclared) {
      localsDeclared = true;
      declareLocals();
    }
  }

  /** A new long local holding 0. */
  int zeroLong() {
    int local = newLocal(Type.LONG_TYPE);
    push(0L);
    storeLocal(local);
    return local;
  }

  /** A new int local holding 0. */
  int zeroInt() {
    int local = newLocal(Type.INT_TYPE);
    push(0);
    storeLocal(local);
    return local;
  }

  /** {@code Probes.now()}; stack: ... -> ..., long */
  void now() {
    invokeRuntime("now", "()J");
  }

  void invokeRuntime(String name, String descriptor) {
    invokeStatic(PROBES, new Method(name, descriptor));
  }
}
