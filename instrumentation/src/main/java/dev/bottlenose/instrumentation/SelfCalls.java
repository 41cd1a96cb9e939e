package dev.bottlenose.instrumentation;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** The methods (among those with inclusive timers) that call themselves directly. */
final class SelfCalls {
  private final Set<String> recursive;

  private SelfCalls(Set<String> recursive) {
    this.recursive = recursive;
  }

  boolean callsItself(String name, String descriptor) {
    return recursive.contains(name + descriptor);
  }

  static SelfCalls scan(ClassReader reader, List<ActiveProbe> probes) {
    Set<String> timed = new HashSet<>();
    for (ActiveProbe p : probes) {
      if (p.kind == ProbeKind.WALL_INCLUSIVE) {
        timed.add(p.method.methodName() + p.method.descriptor());
      }
    }
    Set<String> recursive = new HashSet<>();
    if (!timed.isEmpty()) {
      reader.accept(new Scanner(reader.getClassName(), timed, recursive), ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    }
    return new SelfCalls(recursive);
  }

  private static final class Scanner extends ClassVisitor {
    private final String owner;
    private final Set<String> timed;
    private final Set<String> recursive;

    Scanner(String owner, Set<String> timed, Set<String> recursive) {
      super(Opcodes.ASM9);
      this.owner = owner;
      this.timed = timed;
      this.recursive = recursive;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
      String key = name + descriptor;
      if (!timed.contains(key)) {
        return null;
      }
      return new MethodVisitor(Opcodes.ASM9) {
        @Override
        public void visitMethodInsn(int opcode, String callOwner, String callName, String callDescriptor, boolean itf) {
          if (callOwner.equals(owner) && (callName + callDescriptor).equals(key)) {
            recursive.add(key);
          }
        }
      };
    }
  }
}
