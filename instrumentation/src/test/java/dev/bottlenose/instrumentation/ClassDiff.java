package dev.bottlenose.instrumentation;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceClassVisitor;

/** Readable class bytes for assertion messages, and ASM's verifier over woven bytes. */
final class ClassDiff {
  private ClassDiff() {}

  static String text(byte[] bytes) {
    StringWriter out = new StringWriter();
    new ClassReader(bytes).accept(new TraceClassVisitor(null, new Textifier(), new PrintWriter(out)), 0);
    return out.toString();
  }

  /** The lines where the two classes' listings differ, side by side (at most 40). */
  static String diff(byte[] expected, byte[] actual) {
    List<String> a = text(expected).lines().toList();
    List<String> b = text(actual).lines().toList();
    StringBuilder out = new StringBuilder("expected (-) vs actual (+):\n");
    int shown = 0;
    for (int i = 0; i < Math.max(a.size(), b.size()) && shown < 40; i++) {
      String x = i < a.size() ? a.get(i) : "";
      String y = i < b.size() ? b.get(i) : "";
      if (!x.equals(y)) {
        out.append("- ").append(x).append('\n').append("+ ").append(y).append('\n');
        shown++;
      }
    }
    return shown == 0 ? out.append("(same listing; the bytes differ in constant pool or attributes order)").toString() : out.toString();
  }

  /** What ASM's data-flow verifier says about the class; empty when it is fine. */
  static String verify(byte[] bytes, ClassLoader loader) {
    StringWriter out = new StringWriter();
    CheckClassAdapter.verify(new ClassReader(bytes), loader, false, new PrintWriter(out));
    return out.toString();
  }
}
