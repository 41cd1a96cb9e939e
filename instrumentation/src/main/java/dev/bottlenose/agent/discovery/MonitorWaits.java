package dev.bottlenose.agent.discovery;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Time threads spent blocked entering a monitor, by the method on top of the stack when they blocked
 * ({@code com.acme.Cache.get(I)V}), from JFR's {@code jdk.JavaMonitorEnter} events. Blocking on entry to
 * a synchronized method is invisible to bytecode probes; this is where it is found.
 */
public final class MonitorWaits {
  private final ConcurrentHashMap<String, LongAdder> nanosByMethod = new ConcurrentHashMap<>();

  void add(String className, String methodName, String descriptor, long nanos) {
    nanosByMethod.computeIfAbsent(key(className, methodName, descriptor), k -> new LongAdder()).add(nanos);
  }

  /** Nanoseconds blocked so far with the method on top of the stack (binary class name with dots). */
  public long nanos(String className, String methodName, String descriptor) {
    LongAdder a = nanosByMethod.get(key(className, methodName, descriptor));
    return a == null ? 0 : a.sum();
  }

  private static String key(String className, String methodName, String descriptor) {
    return className + "." + methodName + descriptor;
  }
}
