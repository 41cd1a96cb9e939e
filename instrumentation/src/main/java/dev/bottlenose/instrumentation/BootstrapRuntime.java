package dev.bottlenose.instrumentation;

import java.lang.instrument.Instrumentation;

/**
 * Puts the probe runtime ({@code dev.bottlenose.probe.*}) on the bootstrap class path so that probes
 * woven into any class, JDK classes included, can call it. Must run before anything loads
 * {@code dev.bottlenose.probe.Probes}; idempotent.
 *
 * <p>SKELETON: to be written.
 */
public final class BootstrapRuntime {
  public static void install(Instrumentation instrumentation) {
    if (instrumentation == null) {
      throw new IllegalArgumentException("no instrumentation");
    }
  }

  private BootstrapRuntime() {}
}
