package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/** The built agent jar holds only the agent's own classes, ASM relocated, and declares its entry points. */
class AgentJarIT {
  static final List<String> ALLOWED = List.of("dev/bottlenose/agent/", "dev/bottlenose/instrumentation/",
      "dev/bottlenose/probe/", "dev/bottlenose/model/");

  @Test
  void containsOnlyAgentClassesWithAsmRelocated() throws IOException {
    try (JarFile jar = new JarFile(Target.AGENT_JAR.toFile())) {
      List<String> classes = jar.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).toList();
      assertThat(classes).contains("dev/bottlenose/agent/AgentMain.class", "dev/bottlenose/agent/shaded/asm/ClassReader.class");
      assertThat(classes).allMatch(n -> ALLOWED.stream().anyMatch(n::startsWith), "inside the agent's own packages");
      assertThat(classes).noneMatch(n -> n.startsWith("dev/bottlenose/daemon/"));
    }
  }

  /**
   * Every class in the jar is one the target may run: reachable from the agent's entry point through the
   * classes, methods, fields and types it names (and the class names it loads by string, as the probes'
   * runtime defined into the bootstrap loader). Code only the daemon runs belongs in the daemon's jar.
   */
  @Test
  void everyClassIsReachableFromTheAgentsEntryPoint() throws IOException {
    Map<String, byte[]> classes = new HashMap<>();
    try (JarFile jar = new JarFile(Target.AGENT_JAR.toFile())) {
      for (JarEntry e : Collections.list(jar.entries())) {
        if (e.getName().endsWith(".class")) {
          classes.put(e.getName().substring(0, e.getName().length() - ".class".length()), jar.getInputStream(e).readAllBytes());
        }
      }
    }
    Set<String> reached = new HashSet<>(Set.of("dev/bottlenose/agent/AgentMain"));
    Deque<String> next = new ArrayDeque<>(reached);
    while (!next.isEmpty()) {
      for (String named : named(classes.get(next.pop()))) {
        if (classes.containsKey(named) && reached.add(named)) {
          next.push(named);
        }
      }
    }
    assertThat(new TreeSet<>(classes.keySet())).as("classes of the agent jar the target never runs")
        .allMatch(reached::contains, "reachable from " + AgentMain.class.getName());
  }

  /** Every class a class file names: in types, signatures, owners, and string constants spelling a class. */
  private static Set<String> named(byte[] classFile) {
    Set<String> names = new HashSet<>();
    Remapper collect = new Remapper() {
      @Override
      public String map(String internalName) {
        names.add(internalName);
        return internalName;
      }
    };
    ClassVisitor strings = new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitLdcInsn(Object value) {
            if (value instanceof String s) {
              names.add(s.replace('.', '/'));
            }
          }
        };
      }
    };
    new ClassReader(classFile).accept(new ClassRemapper(strings, collect), 0);
    return names;
  }

  /**
   * No class of the agent concatenates strings through {@code invokedynamic}: each such call site makes the target
   * spin method-handle classes with the JDK's own bytecode library the first time it runs, which loads and compiles
   * code in a JVM that is only a host (the modules the agent is built from compile with {@code -XDstringConcat=inline}).
   */
  @Test
  void concatenatesStringsWithoutSpinningClassesInTheTarget() throws IOException {
    Set<String> spinning = new TreeSet<>();
    try (JarFile jar = new JarFile(Target.AGENT_JAR.toFile())) {
      for (JarEntry e : Collections.list(jar.entries())) {
        if (e.getName().endsWith(".class")) {
          String name = e.getName();
          new ClassReader(jar.getInputStream(e).readAllBytes()).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String method, String descriptor, String signature, String[] exceptions) {
              return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public void visitInvokeDynamicInsn(String indyName, String indyDescriptor, Handle bootstrap, Object... args) {
                  if (bootstrap.getOwner().equals("java/lang/invoke/StringConcatFactory")) {
                    spinning.add(name + " " + method);
                  }
                }
              };
            }
          }, ClassReader.SKIP_DEBUG);
        }
      }
    }
    assertThat(spinning).as("methods concatenating strings with invokedynamic").isEmpty();
  }

  @Test
  void declaresItsEntryPointsAndStaysSmall() throws IOException {
    try (JarFile jar = new JarFile(Target.AGENT_JAR.toFile())) {
      Attributes main = jar.getManifest().getMainAttributes();
      assertThat(main.getValue("Premain-Class")).isEqualTo(AgentMain.class.getName());
      assertThat(main.getValue("Agent-Class")).isEqualTo(AgentMain.class.getName());
      assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
    }
    assertThat(Files.size(Target.AGENT_JAR)).isLessThanOrEqualTo(1 << 20);
  }
}
