package dev.bottlenose.instrumentation;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Puts the probe runtime ({@code dev.bottlenose.probe.*}) into the bootstrap class loader so that
 * probes woven into any class, JDK classes included, can call it. Must run before anything loads
 * {@code dev.bottlenose.probe.Probes}; idempotent.
 *
 * <p>First choice: define the runtime's classes directly in the bootstrap loader (the JDK's internal
 * {@code Unsafe.defineClass} with a null loader, reached by exporting {@code jdk.internal.misc} to this
 * module through {@link Instrumentation#redefineModule}). This leaves the target's class-data sharing
 * alone and prints nothing. Fallback: copy the class files into a temporary jar and append it to the
 * bootstrap class path; HotSpot then prints a one-line CDS warning on the target's standard output.
 */
public final class BootstrapRuntime {
  private static final String PACKAGE_PATH = "dev/bottlenose/probe/";
  private static final String PROBES = "dev.bottlenose.probe.Probes";
  private static boolean installed;

  /**
   * @throws IllegalStateException when the runtime cannot be put on the bootstrap class path, or
   *     was already loaded by another class loader
   */
  public static synchronized void install(Instrumentation instrumentation) {
    if (instrumentation == null) {
      throw new IllegalArgumentException("no instrumentation");
    }
    if (installed) {
      return;
    }
    try {
      if (!defineInBootstrapLoader(instrumentation)) {
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(runtimeJar().toFile()));
      }
      Class<?> probes = Class.forName(PROBES, true, BootstrapRuntime.class.getClassLoader());
      if (probes.getClassLoader() != null) {
        throw new IllegalStateException("the probe runtime was loaded by " + probes.getClassLoader() + " before it was installed");
      }
      installed = true;
    } catch (IOException | ClassNotFoundException | URISyntaxException e) {
      throw new IllegalStateException("cannot put the probe runtime on the bootstrap class path: " + e, e);
    }
  }

  /** Defines every runtime class in the bootstrap loader; false (nothing defined) when the JDK does not allow it. */
  private static boolean defineInBootstrapLoader(Instrumentation instrumentation) {
    try {
      Module base = Object.class.getModule();
      instrumentation.redefineModule(base, Set.of(),
          Map.of("jdk.internal.misc", Set.of(BootstrapRuntime.class.getModule())), Map.of(), Set.of(), Map.of());
      Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
      Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
      Method define = unsafeClass.getMethod("defineClass",
          String.class, byte[].class, int.class, int.class, ClassLoader.class, ProtectionDomain.class);
      ClassLoader loader = BootstrapRuntime.class.getClassLoader();
      List<String> entries = runtimeEntries();
      List<byte[]> classes = new ArrayList<>();
      for (String entry : entries) {
        classes.add(read(loader, entry));
      }
      for (int i = 0; i < entries.size(); i++) {
        String name = entries.get(i).substring(0, entries.get(i).length() - ".class".length()).replace('/', '.');
        byte[] bytes = classes.get(i);
        define.invoke(unsafe, name, bytes, 0, bytes.length, null, null);
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException | IOException | URISyntaxException | LinkageError e) {
      return false;
    }
  }

  private static byte[] read(ClassLoader loader, String entry) throws IOException {
    try (InputStream in = loader.getResourceAsStream(entry)) {
      if (in == null) {
        throw new IOException("resource " + entry + " not found");
      }
      return in.readAllBytes();
    }
  }

  private static Path runtimeJar() throws IOException, URISyntaxException {
    Path jar = Files.createTempFile("bottlenose-probe-", ".jar");
    jar.toFile().deleteOnExit();
    ClassLoader loader = BootstrapRuntime.class.getClassLoader();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String entry : runtimeEntries()) {
        out.putNextEntry(new JarEntry(entry));
        out.write(read(loader, entry));
        out.closeEntry();
      }
    }
    return jar;
  }

  /** The class files of the runtime package, found where this class was loaded from. */
  private static List<String> runtimeEntries() throws IOException, URISyntaxException {
    Path source = Path.of(BootstrapRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> entries = new ArrayList<>();
    if (Files.isDirectory(source)) {
      try (Stream<Path> files = Files.list(source.resolve(PACKAGE_PATH))) {
        files.map(p -> PACKAGE_PATH + p.getFileName()).filter(BootstrapRuntime::isRuntimeClass).forEach(entries::add);
      }
    } else {
      try (JarFile jar = new JarFile(new File(source.toString()))) {
        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
          String name = e.nextElement().getName();
          if (isRuntimeClass(name)) {
            entries.add(name);
          }
        }
      }
    }
    if (entries.isEmpty()) {
      throw new IOException("no " + PACKAGE_PATH + "*.class in " + source);
    }
    return entries;
  }

  private static boolean isRuntimeClass(String entry) {
    return entry.startsWith(PACKAGE_PATH) && entry.endsWith(".class") && entry.indexOf('/', PACKAGE_PATH.length()) < 0;
  }

  private BootstrapRuntime() {}
}
