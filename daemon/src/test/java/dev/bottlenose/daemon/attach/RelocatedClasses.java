package dev.bottlenose.daemon.attach;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * Writes the classes of one package (e.g. the ITs' workload) into a
 * class directory of their own, optionally moved to another package, so a target JVM can run them
 * without Bottlenose's own classes on its class path.
 */
public final class RelocatedClasses {
  private RelocatedClasses() {}

  /** Copies every class of {@code anchor}'s package (not subpackages) into {@code dir}, moved to {@code newPackage}. */
  public static Path write(Class<?> anchor, String newPackage, Path dir) throws IOException {
    String from = anchor.getPackageName().replace('.', '/') + "/";
    String to = newPackage.replace('.', '/') + "/";
    Path source = codeSource(anchor);
    if (Files.isDirectory(source)) {
      try (Stream<Path> files = Files.list(source.resolve(from))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
          try (InputStream in = Files.newInputStream(f)) {
            relocate(in, from, to, dir);
          }
        }
      }
      return dir;
    }
    try (JarFile jar = new JarFile(source.toFile())) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
        JarEntry entry = e.nextElement();
        String name = entry.getName();
        if (name.startsWith(from) && name.endsWith(".class") && name.indexOf('/', from.length()) < 0) {
          try (InputStream in = jar.getInputStream(entry)) {
            relocate(in, from, to, dir);
          }
        }
      }
    }
    return dir;
  }

  private static void relocate(InputStream in, String from, String to, Path dir) throws IOException {
    ClassReader reader = new ClassReader(in);
    ClassWriter writer = new ClassWriter(0);
    reader.accept(new ClassRemapper(writer, new Remapper(Opcodes.ASM9) {
      @Override
      public String map(String internalName) {
        boolean inPackage = internalName.startsWith(from) && internalName.indexOf('/', from.length()) < 0;
        return inPackage ? to + internalName.substring(from.length()) : internalName;
      }
    }), 0);
    Path file = dir.resolve(to + reader.getClassName().substring(from.length()) + ".class");
    Files.createDirectories(file.getParent());
    Files.write(file, writer.toByteArray());
  }

  private static Path codeSource(Class<?> anchor) throws IOException {
    try {
      return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new IOException("cannot find where " + anchor.getName() + " was loaded from: " + e, e);
    }
  }
}
