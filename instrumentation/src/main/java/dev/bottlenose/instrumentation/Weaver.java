package dev.bottlenose.instrumentation;

import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Weaves probes into the original bytes of one class: for every method with probes, one visitor
 * per probe, chained in the order the probes were inserted. Frames are kept (expanded on reading,
 * extended by the visitors' local sorters), so no class is loaded while weaving.
 */
final class Weaver {
  private Weaver() {}

  /** The original class with every probe of {@code probes} woven in. */
  static byte[] weave(byte[] original, List<ActiveProbe> probes) {
    ClassReader reader = new ClassReader(original);
    SelfCalls selfCalls = SelfCalls.scan(reader, probes);
    ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
    reader.accept(new ProbeClassVisitor(writer, probes, selfCalls), ClassReader.EXPAND_FRAMES);
    return writer.toByteArray();
  }

  private static final class ProbeClassVisitor extends ClassVisitor {
    private final List<ActiveProbe> probes;
    private final SelfCalls selfCalls;

    ProbeClassVisitor(ClassVisitor next, List<ActiveProbe> probes, SelfCalls selfCalls) {
      super(Opcodes.ASM9, next);
      this.probes = probes;
      this.selfCalls = selfCalls;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
      MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
      if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
        return mv;
      }
      for (ActiveProbe p : probes) {
        if (p.isIn(name, descriptor)) {
          mv = advice(p, mv, access, name, descriptor);
        }
      }
      return mv;
    }

    private MethodVisitor advice(ActiveProbe p, MethodVisitor next, int access, String name, String descriptor) {
      switch (p.kind) {
        case CALL_COUNT:
          return new CallCountAdvice(next, access, name, descriptor, p.slot);
        case WALL_INCLUSIVE:
          return new WallInclusiveAdvice(next, access, name, descriptor, p.slot, selfCalls.callsItself(name, descriptor));
        case WALL_EXCLUSIVE:
          return new WallExclusiveAdvice(next, access, name, descriptor, p.slot);
        case CALL_SITE:
          return new CallSiteAdvice(next, access, name, descriptor, p.slot, p.callee);
        case ALLOCATION:
          return new AllocationAdvice(next, access, name, descriptor, p.sites);
        default:
          return new MonitorAdvice(next, access, name, descriptor, p.slot);
      }
    }
  }
}
