package dev.bottlenose.agent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * {@link AgentWorkload} moved to the package {@value #PACKAGE}, written to a class directory of its own:
 * the agent refuses to probe anything in {@code dev.bottlenose.*}, so the target runs a copy outside it.
 */
final class WorkloadClasses {
  static final String PACKAGE = "acme.workload";
  static final String MAIN_CLASS = PACKAGE + ".AgentWorkload";
  static final String LOCK_CLASS = MAIN_CLASS + "$SharedLock";
  private static final String FROM = AgentWorkload.class.getName().replace('.', '/');
  private static final String TO = MAIN_CLASS.replace('.', '/');

  /** Writes the relocated workload classes below {@code dir}; returns {@code dir} for the class path. */
  static Path writeTo(Path dir) throws IOException {
    for (Class<?> c : new Class<?>[] {AgentWorkload.class, AgentWorkload.SharedLock.class, AgentWorkload.Plugin.class}) {
      String name = c.getName().replace('.', '/');
      byte[] relocated;
      try (InputStream in = c.getClassLoader().getResourceAsStream(name + ".class")) {
        ClassReader reader = new ClassReader(in);
        ClassWriter writer = new ClassWriter(0);
        reader.accept(new ClassRemapper(writer, new Remapper() {
          @Override
          public String map(String internalName) {
            return internalName.startsWith(FROM) ? TO + internalName.substring(FROM.length()) : internalName;
          }
        }), 0);
        relocated = writer.toByteArray();
      }
      Path file = dir.resolve(TO + name.substring(FROM.length()) + ".class");
      Files.createDirectories(file.getParent());
      Files.write(file, relocated);
    }
    return dir;
  }

  private WorkloadClasses() {}
}
