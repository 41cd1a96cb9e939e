package dev.bottlenose.instrumentation;

import com.sun.tools.attach.VirtualMachine;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A real {@link Instrumentation} for the test JVM, by attaching to itself: a manifest-only agent jar
 * names this class as its agent class (found on the test class path), and the VM hands the
 * instrumentation to {@link #agentmain}. Needs {@code -Djdk.attach.allowAttachSelf=true}.
 */
public final class TestAgent {
  private static volatile Instrumentation instrumentation;
  private static ProbeManager manager;

  public static void agentmain(String args, Instrumentation inst) {
    instrumentation = inst;
  }

  /** The one probe manager of this JVM, with the probe runtime installed on the bootstrap path. */
  static synchronized ProbeManager manager() {
    if (manager == null) {
      Instrumentation inst = instrumentation();
      BootstrapRuntime.install(inst);
      manager = new ProbeManager(inst);
    }
    return manager;
  }

  static synchronized Instrumentation instrumentation() {
    if (instrumentation == null) {
      try {
        Path jar = agentJar();
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
          vm.loadAgent(jar.toString());
        } finally {
          vm.detach();
        }
      } catch (Exception e) {
        throw new IllegalStateException("self-attach failed", e);
      }
    }
    return instrumentation;
  }

  private static Path agentJar() throws java.io.IOException {
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.putValue("Agent-Class", TestAgent.class.getName());
    main.putValue("Can-Retransform-Classes", "true");
    Path jar = Files.createTempFile("bottlenose-test-agent-", ".jar");
    jar.toFile().deleteOnExit();
    try (OutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
      out.flush();
    }
    return jar;
  }

  private TestAgent() {}
}
