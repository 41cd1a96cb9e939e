package dev.bottlenose.agent.sources;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Set;

/**
 * The agent's threads: daemon threads named {@code bottlenose-*}, each excluded from JFR before it starts,
 * so that the recording holds the program's events only. Without that, JFR walked the stacks of the agent's
 * own allocation samples (about 10 a second at rest, 7% of the samples' quota), and of its parks and socket
 * reads while a search lowered those thresholds (6,200 events in five minutes with two searches), and the
 * daemon threw them away. JFR's exclusion is internal ({@code jdk.jfr.internal.JVM}):
 * {@link #open} opens that one package to the agent's module alone; where it cannot, threads are recorded as
 * before and the daemon still drops their events ({@link ToolCode#isToolThread}).
 */
public final class ToolThreads {
  private static volatile Exclusion exclusion = Exclusion.unavailable("not opened yet");

  private ToolThreads() {
  }

  /** Finds JFR's thread exclusion; idempotent, never throws. */
  public static synchronized void open(Instrumentation instrumentation) {
    if (exclusion.method != null) {
      return;
    }
    try {
      Class<?> jvm = Class.forName("jdk.jfr.internal.JVM", false, ClassLoader.getPlatformClassLoader());
      Module mine = ToolThreads.class.getModule();
      if (!jvm.getModule().isOpen(jvm.getPackageName(), mine)) {
        instrumentation.redefineModule(jvm.getModule(), Set.of(), Map.of(), Map.of(jvm.getPackageName(), Set.of(mine)),
            Set.of(), Map.of());
      }
      Method exclude = jvm.getMethod("exclude", Thread.class);
      exclude.setAccessible(true);
      Object target = null;
      if (!Modifier.isStatic(exclude.getModifiers())) {
        // JDK 17 to 21: an instance method of the one JVM object; static from JDK 22.
        Method getJvm = jvm.getMethod("getJVM");
        getJvm.setAccessible(true);
        target = getJvm.invoke(null);
      }
      exclusion = new Exclusion(exclude, target, "excluded");
    } catch (Throwable t) {
      exclusion = Exclusion.unavailable(t.toString());
    }
  }

  /** A new, unstarted daemon thread of the agent's, which JFR will not record. */
  public static Thread newThread(String name, Runnable task) {
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    exclude(t);
    return t;
  }

  /**
   * Keeps JFR from recording {@code thread}, started or not: for the agent's one thread made before {@link #open}
   * ({@code bottlenose-wait}, which waits without touching JFR). Does nothing before {@link #open}; never throws.
   */
  public static void exclude(Thread thread) {
    Exclusion e = exclusion;
    if (e.method != null) {
      try {
        e.method.invoke(e.target, thread);
      } catch (Throwable failure) {
        exclusion = Exclusion.unavailable("excluding " + thread.getName() + " failed: " + failure);
      }
    }
  }

  /** {@code excluded}, or {@code recorded: <why>} when JFR records the agent's threads. */
  public static String jfrStatus() {
    Exclusion e = exclusion;
    return e.method != null ? e.status : "recorded: " + e.status;
  }

  private record Exclusion(Method method, Object target, String status) {
    static Exclusion unavailable(String why) {
      return new Exclusion(null, null, why);
    }
  }
}
