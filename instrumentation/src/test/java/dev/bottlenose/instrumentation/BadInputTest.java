package dev.bottlenose.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import acme.workload.Workloads;
import dev.bottlenose.instrumentation.ProbeException.Reason;
import dev.bottlenose.model.MethodRef;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class BadInputTest {
  private static final String ME = "bad-input-test";
  private static final String SHAPE = Workloads.Shape.class.getName();
  private static ProbeManager manager;

  @BeforeAll
  static void attach() {
    manager = TestAgent.manager();
    Workloads.load();
  }

  @AfterEach
  void nothingChanged() {
    assertThat(manager.ledger()).noneMatch(e -> e.requester().equals(ME));
    assertThat(manager.suppressedErrors()).isZero();
  }

  @Test
  void unknownClass() {
    ProbeException e = refused(new MethodRef("com.acme.Nowhere", "run", null), ProbeKind.CALL_COUNT);
    assertThat(e.reason()).isEqualTo(Reason.NO_SUCH_CLASS);
    assertThat(e).hasMessageContaining("com.acme.Nowhere");
  }

  @Test
  void unknownMethodListsTheOverloads() {
    ProbeException e = refused(new MethodRef(SHAPE, "over", "(J)I"), ProbeKind.CALL_COUNT);
    assertThat(e.reason()).isEqualTo(Reason.NO_SUCH_METHOD);
    assertThat(e).hasMessageContaining("over(J)I").hasMessageContaining("over(I)I").hasMessageContaining("over(Ljava/lang/String;)I");

    ProbeException none = refused(new MethodRef(SHAPE, "missing", null), ProbeKind.CALL_COUNT);
    assertThat(none.reason()).isEqualTo(Reason.NO_SUCH_METHOD);
    assertThat(none).hasMessageContaining("missing").hasMessageContaining(SHAPE);
  }

  @Test
  void overloadsWithoutDescriptorAreAmbiguous() {
    ProbeException e = refused(new MethodRef(SHAPE, "over", null), ProbeKind.WALL_INCLUSIVE);
    assertThat(e.reason()).isEqualTo(Reason.AMBIGUOUS_METHOD);
    assertThat(e).hasMessageContaining("over(I)I").hasMessageContaining("over(Ljava/lang/String;)I");
  }

  @Test
  void abstractAndNativeMethodsHaveNoCodeToProbe() {
    assertThat(refused(new MethodRef(SHAPE, "area", null), ProbeKind.CALL_COUNT).reason()).isEqualTo(Reason.ABSTRACT_METHOD);
    assertThat(refused(new MethodRef(SHAPE, "nativeThing", null), ProbeKind.CALL_COUNT).reason()).isEqualTo(Reason.NATIVE_METHOD);
  }

  @Test
  void hiddenRuntimeAndBottlenoseClassesAreUnmodifiable() {
    IntSupplier lambda = () -> 42;
    ProbeException hidden = refused(new MethodRef(lambda.getClass().getName(), "getAsInt", null), ProbeKind.CALL_COUNT);
    assertThat(hidden.reason()).isEqualTo(Reason.UNMODIFIABLE_CLASS);
    assertThat(hidden).hasMessageContaining("hidden");
    assertThat(refused(new MethodRef("java.lang.Object", "toString", null), ProbeKind.CALL_COUNT).reason())
        .isEqualTo(Reason.UNMODIFIABLE_CLASS);
    assertThat(refused(new MethodRef(ProbeManager.class.getName(), "ledger", null), ProbeKind.CALL_COUNT).reason())
        .isEqualTo(Reason.UNMODIFIABLE_CLASS);
    assertThat(refused(new MethodRef("java.lang.invoke.MethodHandles", "lookup", null), ProbeKind.CALL_COUNT).reason())
        .isEqualTo(Reason.UNMODIFIABLE_CLASS);
  }

  @Test
  void removingAnUnknownProbeIsRefused() {
    ProbeException e = catchThrowableOfType(ProbeException.class, () -> manager.remove(987_654_321L));
    assertThat(e.reason()).isEqualTo(Reason.NO_SUCH_PROBE);
    assertThat(e).hasMessageContaining("987654321");
  }

  @Test
  void aFailedWeavingLeavesNothingHalfApplied() throws Exception {
    Class<?> huge = HugeClass.define();
    MethodRef small = new MethodRef(huge.getName(), "small", null);
    long kept = manager.insert(new ProbeRequest(small, ProbeKind.CALL_COUNT, null, "kept")).probeId();
    try {
      byte[] before = manager.currentClassBytes(huge.getName());
      ProbeException e = refused(new MethodRef(huge.getName(), "huge", null), ProbeKind.WALL_EXCLUSIVE);
      assertThat(e.reason()).isEqualTo(Reason.TRANSFORM_FAILED);
      assertThat(e).hasMessageContaining(huge.getName());
      assertThat(Arrays.equals(before, manager.currentClassBytes(huge.getName()))).isTrue();
      huge.getMethod("small").invoke(null);
      assertThat(manager.read()).filteredOn(r -> r.probeId() == kept).extracting(ProbeReading::count).containsExactly(1L);
    } finally {
      manager.remove(kept);
    }
  }

  private static ProbeException refused(MethodRef method, ProbeKind kind) {
    List<LedgerEntry> before = manager.ledger();
    ProbeException e = catchThrowableOfType(ProbeException.class, () -> manager.insert(new ProbeRequest(method, kind, null, ME)));
    assertThat(e).as("insert of %s into %s", kind, method).isNotNull();
    assertThat(manager.ledger()).isEqualTo(before);
    return e;
  }

  /** A class whose method {@code huge} is so close to the 64 KiB code limit that no timer fits in. */
  static final class HugeClass extends ClassLoader {
    private static final String NAME = "acme/generated/Huge";

    HugeClass() {
      super(BadInputTest.class.getClassLoader());
    }

    static Class<?> define() {
      byte[] bytes = bytes();
      Class<?> c = new HugeClass().defineClass(NAME.replace('/', '.'), bytes, 0, bytes.length);
      try {
        c.getMethod("small").invoke(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
      return c;
    }

    private static byte[] bytes() {
      ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
      cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, NAME, null, "java/lang/Object", null);
      MethodVisitor small = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "small", "()V", null, null);
      small.visitCode();
      small.visitInsn(Opcodes.RETURN);
      small.visitMaxs(0, 0);
      small.visitEnd();
      MethodVisitor huge = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "huge", "()I", null, null);
      huge.visitCode();
      huge.visitInsn(Opcodes.ICONST_0);
      huge.visitVarInsn(Opcodes.ISTORE, 0);
      for (int i = 0; i < 21_835; i++) {
        huge.visitIincInsn(0, 1);
      }
      huge.visitMethodInsn(Opcodes.INVOKESTATIC, NAME, "small", "()V", false);
      huge.visitVarInsn(Opcodes.ILOAD, 0);
      huge.visitInsn(Opcodes.IRETURN);
      huge.visitMaxs(0, 0);
      huge.visitEnd();
      cw.visitEnd();
      return cw.toByteArray();
    }
  }
}
