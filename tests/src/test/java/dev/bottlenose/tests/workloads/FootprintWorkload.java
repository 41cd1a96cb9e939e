package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A target with many small methods, for measuring what the agent adds to a JVM: {@code CLASSES} classes
 * of {@code METHODS} static methods each ({@code FootprintGen<c>.m<i>(I)I}), generated at start and
 * defined as ordinary classes of this package, so they can be instrumented like any other. A thread
 * calls every method in turn for as long as the program runs. {@code mem} collects the garbage and
 * prints {@code mem heap=… metaspace=… classes=… rss=…} (bytes); {@code exit} ends it.
 */
public final class FootprintWorkload {
  public static final int CLASSES = 20;
  public static final int METHODS = 50;
  private static volatile long sink;

  public static void main(String[] args) throws Throwable {
    List<MethodHandle> methods = define();
    Thread caller = new Thread(() -> callForever(methods), "footprint-caller");
    caller.setDaemon(true);
    caller.start();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.flush();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.trim().equals("mem")) {
        System.out.println(memory());
        System.out.flush();
      } else if (line.trim().equals("exit")) {
        return;
      }
    }
  }

  /** The internal name of generated class {@code c}. */
  public static String className(int c) {
    return FootprintWorkload.class.getPackageName() + ".FootprintGen" + c;
  }

  private static List<MethodHandle> define() throws Exception {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    MethodType type = MethodType.methodType(int.class, int.class);
    List<MethodHandle> handles = new ArrayList<>();
    for (int c = 0; c < CLASSES; c++) {
      Class<?> k = lookup.defineClass(generate(className(c).replace('.', '/')));
      for (int i = 0; i < METHODS; i++) {
        handles.add(lookup.findStatic(k, "m" + i, type));
      }
    }
    return handles;
  }

  private static byte[] generate(String internalName) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, internalName, null, "java/lang/Object", null);
    for (int i = 0; i < METHODS; i++) {
      MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "m" + i, "(I)I", null, null);
      mv.visitCode();
      mv.visitVarInsn(Opcodes.ILOAD, 0);
      mv.visitIntInsn(Opcodes.BIPUSH, 31);
      mv.visitInsn(Opcodes.IMUL);
      mv.visitIntInsn(Opcodes.SIPUSH, i);
      mv.visitInsn(Opcodes.IADD);
      mv.visitInsn(Opcodes.IRETURN);
      mv.visitMaxs(0, 0);
      mv.visitEnd();
    }
    cw.visitEnd();
    return cw.toByteArray();
  }

  private static void callForever(List<MethodHandle> methods) {
    int x = 1;
    while (true) {
      for (MethodHandle m : methods) {
        try {
          x = (int) m.invokeExact(x);
        } catch (Throwable e) {
          throw new IllegalStateException(e);
        }
      }
      sink = x;
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static String memory() throws IOException {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    long metaspace = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getName().equals("Metaspace")).mapToLong(p -> p.getUsage().getUsed()).sum();
    long classes = ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
    return "mem heap=" + heap + " metaspace=" + metaspace + " classes=" + classes + " rss=" + rss();
  }

  private static long rss() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return -1;
  }
}
