package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.CodePaths;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodType;
import java.lang.ref.WeakReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@code /Code}: packages and classes of every loaded class, kept current by a transformer that only
 * notes the names of newly loaded classes; methods of a class are added when someone asks below it.
 * The agent's own classes (those from the jar this class came from) are left out.
 */
final class CodeDiscovery implements ClassFileTransformer {
  private final Instrumentation instrumentation;
  private final ResourceTree tree;
  private final Map<String, List<WeakReference<Class<?>>>> classes = new ConcurrentHashMap<>();
  private final Map<String, Boolean> expanded = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<String> loadedNames = new ConcurrentLinkedQueue<>();
  static final long SCAN_SPACING = 100;
  private long nextScanNanos = System.nanoTime();
  /** Every loaded class already looked at, held weakly (a class's identity is its key). */
  private final Map<Class<?>, Boolean> seen = new WeakHashMap<>();
  private final URL agentCode = codeSourceOf(CodeDiscovery.class);

  CodeDiscovery(Instrumentation instrumentation, ResourceTree tree) {
    this.instrumentation = instrumentation;
    this.tree = tree;
  }

  void start() {
    instrumentation.addTransformer(this, false);
    scanLoadedClasses();
  }

  void stop() {
    instrumentation.removeTransformer(this);
  }

  @Override
  public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
      ProtectionDomain domain, byte[] classfileBuffer) {
    if (classBeingRedefined == null && className != null) {
      loadedNames.add(className);
    }
    return null;
  }

  /**
   * Adds the classes loaded since the last call; nothing to do when the transformer saw none. A scan walks every
   * loaded class, so the next one waits {@value #SCAN_SPACING} times as long as this one took: at most 1% of a
   * core however many classes the program keeps loading (tens of thousands in a plugin host that defines a class
   * per request), which makes the newest classes show up later there.
   */
  void refresh() {
    long now = System.nanoTime();
    if (!loadedNames.isEmpty() && now - nextScanNanos >= 0) {
      loadedNames.clear();
      scanLoadedClasses();
      nextScanNanos = now + SCAN_SPACING * (System.nanoTime() - now);
    }
  }

  /**
   * Notes the loaded classes not seen before. Each is looked up in {@link #seen} by identity: a program that
   * defines a class of the same name again and again, each in a loader of its own (a plugin host, a script
   * engine), had the copies of that name searched one by one for every loaded class, which took the agent's
   * thread 0.6 of a core at a few thousand definitions a second. A name's resource is put when its first copy
   * comes (or the first after {@link #markUnloaded} found every earlier one collected), not for every copy.
   */
  private synchronized void scanLoadedClasses() {
    for (Class<?> c : instrumentation.getAllLoadedClasses()) {
      if (seen.put(c, Boolean.TRUE) != null || !isDiscoverable(c)) {
        continue;
      }
      List<WeakReference<Class<?>>> refs = classes.computeIfAbsent(c.getName(), n -> new ArrayList<>());
      boolean first;
      synchronized (refs) {
        first = refs.isEmpty();
        refs.add(new WeakReference<>(c));
      }
      if (first) {
        putClass(c.getName(), false);
      }
    }
  }

  /** Not arrays, primitives or hidden classes, nor the agent's own (from its jar, or the probe runtime). */
  private boolean isDiscoverable(Class<?> c) {
    if (c.isArray() || c.isPrimitive() || c.isHidden() || c.getName().startsWith("dev.bottlenose.probe.")) {
      return false;
    }
    ProtectionDomain domain = c.getProtectionDomain();
    CodeSource source = domain == null ? null : domain.getCodeSource();
    return agentCode == null || source == null || !agentCode.equals(source.getLocation());
  }

  private static URL codeSourceOf(Class<?> c) {
    CodeSource source = c.getProtectionDomain().getCodeSource();
    return source == null ? null : source.getLocation();
  }

  private void putClass(String name, boolean unloaded) {
    ResourcePath pkg = CodePaths.packageOf(name);
    if (tree.get(pkg) == null) {
      tree.put(Resource.of(pkg, "package"));
    }
    ResourcePath path = CodePaths.ofClass(name);
    tree.put(new Resource(path, "class", unloaded ? Map.of("unloaded", "true") : Map.of()));
  }

  /** Marks {@code unloaded=true} the classes whose every loaded copy has been collected. */
  void markUnloaded() {
    for (Map.Entry<String, List<WeakReference<Class<?>>>> e : classes.entrySet()) {
      List<WeakReference<Class<?>>> refs = e.getValue();
      synchronized (refs) {
        if (!refs.isEmpty() && refs.removeIf(r -> r.get() == null) && refs.isEmpty()) {
          putClass(e.getKey(), true);
        }
      }
    }
  }

  /**
   * Adds the methods a listing of {@code path} to {@code depth} levels (-1: all) can reach: those of the class
   * of a class or method path, and those of every class of a package only when the listing goes two levels
   * below it. A package listed one level down shows its classes and costs no reflection: a search refining
   * into {@code java.lang} asks for its classes, and reading the methods of each of its hundreds of classes
   * made the JIT compile for 1.7 s instead of 0.8 s in a first 1% search on the compute benchmark.
   */
  void expandMethods(ResourcePath path, int depth) {
    if (path.hierarchy() != Hierarchy.CODE || path.depth() < 1 || (path.depth() == 1 && depth == 1)) {
      return;
    }
    for (Resource r : tree.subtree(path.depth() > 2 ? path.parent() : path, 1)) {
      if ("class".equals(r.kind()) && expanded.putIfAbsent(r.path().toString(), true) == null) {
        addMethods(CodePaths.className(r.path()));
      }
    }
  }

  /** The live classes named {@code className} (several when several loaders define it). */
  List<Class<?>> classesNamed(String className) {
    List<Class<?>> out = new ArrayList<>();
    List<WeakReference<Class<?>>> refs = classes.get(className);
    if (refs != null) {
      synchronized (refs) {
        for (WeakReference<Class<?>> r : refs) {
          Class<?> c = r.get();
          if (c != null) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }

  private void addMethods(String className) {
    for (Class<?> c : classesNamed(className)) {
      try {
        for (Constructor<?> k : c.getDeclaredConstructors()) {
          putMethod(className, "<init>", k, MethodType.methodType(void.class, k.getParameterTypes()));
        }
        for (Method m : c.getDeclaredMethods()) {
          putMethod(className, m.getName(), m, MethodType.methodType(m.getReturnType(), m.getParameterTypes()));
        }
      } catch (LinkageError | SecurityException e) {
        ResourcePath path = CodePaths.ofClass(className);
        Resource r = tree.get(path);
        Map<String, String> attributes = new java.util.HashMap<>(r == null ? Map.of() : r.attributes());
        attributes.put("methodsUnavailable", e.toString());
        tree.put(new Resource(path, "class", attributes));
      }
    }
  }

  private void putMethod(String className, String name, Executable e, MethodType type) {
    Map<String, String> attributes = new java.util.LinkedHashMap<>();
    int modifiers = e.getModifiers();
    if (Modifier.isAbstract(modifiers)) {
      attributes.put("abstract", "true");
    }
    if (Modifier.isNative(modifiers)) {
      attributes.put("native", "true");
    }
    if (Modifier.isSynchronized(modifiers)) {
      attributes.put("synchronized", "true");
    }
    if (Modifier.isStatic(modifiers)) {
      attributes.put("static", "true");
    }
    if (e.isSynthetic()) {
      attributes.put("synthetic", "true");
    }
    tree.put(new Resource(CodePaths.method(className, name, type.toMethodDescriptorString()), "method", attributes));
  }
}
