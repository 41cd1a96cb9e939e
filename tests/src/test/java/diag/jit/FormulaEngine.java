package diag.jit;

import diag.Run;
import java.lang.invoke.MethodHandles;
import java.util.List;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Planted: JIT compilation. A pricing engine that compiles every incoming pricing rule to bytecode (as a rules
 * engine or an expression language in compiled mode does) and prices a batch of quotes with it, then the next
 * rule arrives and the compiled one is dropped. Each rule is a hidden class with one big arithmetic method
 * (about 250 operations with branches); a batch calls it 30,000 times, enough for the JIT to compile it twice
 * (C1, then C2), and the compilers spend more on each rule than the batch runs in it. Known answer:
 * jit_compile_time, at the whole program or at {@code diag.jit} (the rules' code being compiled).
 */
public final class FormulaEngine {
  static final int CALLS_PER_RULE = 30_000;
  static final int INPUTS = 16;
  static final int OPERATIONS = 250;
  static volatile double sink;

  /** A compiled pricing rule: a price from a quote's inputs. */
  public interface Rule {
    double price(double[] quote);
  }

  public static void main(String[] args) throws Exception {
    Run.workers(List.of(new Run.Worker("pricing", FormulaEngine::serve)));
  }

  static void serve() throws Exception {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    double[] quote = new double[INPUTS];
    double total = 0;
    for (long seed = 1; Run.running(); seed++) {
      Rule rule = compile(lookup, seed);
      for (int i = 0; i < CALLS_PER_RULE; i++) {
        quote[i % INPUTS] = 1 + (i & 1023) * 0.01;
        total += rule.price(quote);
      }
      sink = total;
    }
  }

  /** The rule of {@code seed}, compiled to a hidden class (unloaded once it is dropped). */
  static Rule compile(MethodHandles.Lookup lookup, long seed) throws Exception {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, "diag/jit/CompiledRule", null, "java/lang/Object",
        new String[] {"diag/jit/FormulaEngine$Rule"});
    MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC, "price", "([D)D", null, null);
    m.visitCode();
    long[] state = {seed};
    m.visitInsn(Opcodes.DCONST_0);
    for (int op = 0; op < OPERATIONS; op++) {
      term(m, state);
      switch (next(state, 4)) {
        case 0 -> m.visitInsn(Opcodes.DADD);
        case 1 -> m.visitInsn(Opcodes.DSUB);
        case 2 -> {
          m.visitLdcInsn(0.001);
          m.visitInsn(Opcodes.DMUL);
          m.visitInsn(Opcodes.DADD);
        }
        default -> {
          // a discount: subtract the term only when it is above a bound
          Label skip = new Label();
          Label done = new Label();
          m.visitInsn(Opcodes.DUP2);
          m.visitLdcInsn(5.0 + next(state, 10));
          m.visitInsn(Opcodes.DCMPL);
          m.visitJumpInsn(Opcodes.IFLE, skip);
          m.visitInsn(Opcodes.DSUB);
          m.visitJumpInsn(Opcodes.GOTO, done);
          m.visitLabel(skip);
          m.visitInsn(Opcodes.POP2);
          m.visitLabel(done);
        }
      }
    }
    m.visitInsn(Opcodes.DRETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
    cw.visitEnd();
    Class<?> c = lookup.defineHiddenClass(cw.toByteArray(), true).lookupClass();
    return (Rule) c.getDeclaredConstructor().newInstance();
  }

  /** Pushes one term: an input times a constant, or a product of two inputs. */
  private static void term(MethodVisitor m, long[] state) {
    input(m, state);
    if (next(state, 3) == 0) {
      input(m, state);
    } else {
      m.visitLdcInsn(0.5 + next(state, 100) / 10.0);
    }
    m.visitInsn(Opcodes.DMUL);
  }

  private static void input(MethodVisitor m, long[] state) {
    m.visitVarInsn(Opcodes.ALOAD, 1);
    m.visitLdcInsn(next(state, INPUTS));
    m.visitInsn(Opcodes.DALOAD);
  }

  private static int next(long[] state, int bound) {
    state[0] = state[0] * 6364136223846793005L + 1442695040888963407L;
    return (int) ((state[0] >>> 33) % bound);
  }
}
