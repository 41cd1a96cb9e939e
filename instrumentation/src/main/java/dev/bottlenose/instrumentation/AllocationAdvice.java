package dev.bottlenose.instrumentation;

import java.util.ArrayDeque;
import java.util.Deque;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * {@link ProbeKind#ALLOCATION}: every creation site of the method gets its own slot. Objects are
 * recorded after their constructor ran (javac's {@code new T; dup; ...; invokespecial T.<init>},
 * nested creations matched innermost first), so the runtime can learn the type's shallow size once;
 * arrays are recorded with their length before they are created.
 */
final class AllocationAdvice extends ProbeAdvice {
  private final AllocationSites sites;
  private final Deque<Pending> pending = new ArrayDeque<>();
  private Pending justCreated;
  private int nextSite;

  AllocationAdvice(MethodVisitor next, int access, String name, String descriptor, AllocationSites sites) {
    super(next, access, name, descriptor, -1);
    this.sites = sites;
  }

  @Override
  public void visitTypeInsn(int opcode, String type) {
    justCreated = null;
    if (opcode == ANEWARRAY) {
      recordArray(Type.getObjectType(type).getClassName() + "[]", AllocationSites.REFERENCE_SIZE);
    }
    super.visitTypeInsn(opcode, type);
    if (opcode == NEW) {
      justCreated = new Pending(type, nextSite++);
      pending.push(justCreated);
    }
  }

  @Override
  public void visitIntInsn(int opcode, int operand) {
    justCreated = null;
    if (opcode == NEWARRAY) {
      Type element = primitive(operand);
      recordArray(element.getClassName() + "[]", element.getSize() == 2 ? 8 : primitiveBytes(operand));
    }
    super.visitIntInsn(opcode, operand);
  }

  @Override
  public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
    justCreated = null;
    // Probes.count(site);
    push(sites.slot(nextSite++, Type.getType(descriptor).getClassName(), AllocationSites.COUNT_ONLY));
    invokeRuntime("count", "(I)V");
    super.visitMultiANewArrayInsn(descriptor, dimensions);
  }

  @Override
  public void visitInsn(int opcode) {
    if (opcode == DUP && justCreated != null) {
      justCreated.duplicated = true;
    }
    justCreated = null;
    super.visitInsn(opcode);
  }

  @Override
  public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
    justCreated = null;
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    if (opcode == INVOKESPECIAL && name.equals("<init>") && !pending.isEmpty() && pending.peek().type.equals(owner)) {
      recordObject(pending.pop());
    }
  }

  @Override
  public void visitVarInsn(int opcode, int var) {
    justCreated = null;
    super.visitVarInsn(opcode, var);
  }

  @Override
  public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
    justCreated = null;
    super.visitFieldInsn(opcode, owner, name, descriptor);
  }

  @Override
  public void visitLdcInsn(Object value) {
    justCreated = null;
    super.visitLdcInsn(value);
  }

  @Override
  public void visitJumpInsn(int opcode, Label label) {
    justCreated = null;
    super.visitJumpInsn(opcode, label);
  }

  @Override
  public void visitLabel(Label label) {
    justCreated = null;
    super.visitLabel(label);
  }

  @Override
  public void visitIincInsn(int var, int increment) {
    justCreated = null;
    super.visitIincInsn(var, increment);
  }

  @Override
  public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
    justCreated = null;
    super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
  }

  @Override
  public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
    justCreated = null;
    super.visitTableSwitchInsn(min, max, dflt, labels);
  }

  @Override
  public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
    justCreated = null;
    super.visitLookupSwitchInsn(dflt, keys, labels);
  }

  /**
   * <pre>
   * Probes.allocated(created, site);   // new T; dup; ...; invokespecial T.&lt;init&gt; seen
   * Probes.count(site);                // the created object is not on the stack: count only
   * </pre>
   */
  private void recordObject(Pending created) {
    String typeName = Type.getObjectType(created.type).getClassName();
    if (created.duplicated) {
      dup(); // stack: created, created
      push(sites.slot(created.site, typeName, AllocationSites.OBJECT));
      invokeRuntime("allocated", "(Ljava/lang/Object;I)V");
    } else {
      push(sites.slot(created.site, typeName, AllocationSites.COUNT_ONLY));
      invokeRuntime("count", "(I)V");
    }
  }

  /** <pre>Probes.allocatedArray(length, site);   // stack: length (kept for the array creation)</pre> */
  private void recordArray(String typeName, int elementSize) {
    dup(); // stack: length, length
    push(sites.slot(nextSite++, typeName, elementSize));
    invokeRuntime("allocatedArray", "(II)V");
  }

  private static Type primitive(int operand) {
    switch (operand) {
      case T_BOOLEAN: return Type.BOOLEAN_TYPE;
      case T_CHAR: return Type.CHAR_TYPE;
      case T_FLOAT: return Type.FLOAT_TYPE;
      case T_DOUBLE: return Type.DOUBLE_TYPE;
      case T_BYTE: return Type.BYTE_TYPE;
      case T_SHORT: return Type.SHORT_TYPE;
      case T_INT: return Type.INT_TYPE;
      default: return Type.LONG_TYPE;
    }
  }

  private static int primitiveBytes(int operand) {
    switch (operand) {
      case T_BOOLEAN: case T_BYTE: return 1;
      case T_CHAR: case T_SHORT: return 2;
      default: return 4;
    }
  }

  private static final class Pending {
    final String type;
    final int site;
    boolean duplicated;

    Pending(String type, int site) {
      this.type = type;
      this.site = site;
    }
  }
}
