package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

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
