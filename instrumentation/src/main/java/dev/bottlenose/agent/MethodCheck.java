package dev.bottlenose.agent;

import dev.bottlenose.model.MethodRef;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a requested method against the loaded classes before any bytes are touched, so that an
 * unknown class or method is refused naming the path; and tells whether a method is synchronized.
 */
final class MethodCheck {
  private final AgentRuntime runtime;

  MethodCheck(AgentRuntime runtime) {
    this.runtime = runtime;
  }

  void check(MethodRef ref) throws RequestException {
    List<Class<?>> classes = classes(ref.className());
    if (classes.isEmpty()) {
      throw new RequestException("NO_SUCH_CLASS", "no loaded class " + ref.className() + " for " + ref.toPath());
    }
    if ("<clinit>".equals(ref.methodName())) {
      return;
    }
    List<String> overloads = new ArrayList<>();
    for (Class<?> c : classes) {
      try {
        overloads.addAll(overloads(c, ref.methodName()));
      } catch (LinkageError e) {
        return;
      }
    }
    if (overloads.isEmpty()) {
      throw new RequestException("NO_SUCH_METHOD", "no method " + ref.methodName() + " in " + ref.className()
          + " for " + ref.toPath());
    }
    if (ref.descriptor() != null && !overloads.contains(ref.descriptor())) {
      throw new RequestException("NO_SUCH_METHOD", "no method " + ref.methodName() + ref.descriptor() + " in "
          + ref.className() + " for " + ref.toPath() + " (has " + ref.methodName() + String.join(", " + ref.methodName(), overloads) + ")");
    }
    if (ref.descriptor() == null && overloads.stream().distinct().count() > 1) {
      throw new RequestException("AMBIGUOUS_METHOD", ref.toPath() + " names " + overloads.size() + " overloads: "
          + ref.methodName() + String.join(", " + ref.methodName(), overloads) + "; add the descriptor");
    }
  }

  boolean isSynchronized(MethodRef ref) {
    for (Class<?> c : classes(ref.className())) {
      try {
        for (Method m : c.getDeclaredMethods()) {
          if (m.getName().equals(ref.methodName()) && descriptor(m).equals(ref.descriptor())) {
            return Modifier.isSynchronized(m.getModifiers());
          }
        }
      } catch (LinkageError e) {
        return false;
      }
    }
    return false;
  }

  private List<Class<?>> classes(String className) {
    List<Class<?>> found = runtime.discovery().classesNamed(className);
    if (found.isEmpty()) {
      for (Class<?> c : runtime.instrumentation.getAllLoadedClasses()) {
        if (c.getName().equals(className)) {
          found.add(c);
        }
      }
    }
    return found;
  }

  private static List<String> overloads(Class<?> c, String name) {
    List<String> out = new ArrayList<>();
    if ("<init>".equals(name)) {
      for (Constructor<?> k : c.getDeclaredConstructors()) {
        out.add(MethodType.methodType(void.class, k.getParameterTypes()).toMethodDescriptorString());
      }
    }
    for (Method m : c.getDeclaredMethods()) {
      if (m.getName().equals(name)) {
        out.add(descriptor(m));
      }
    }
    return out;
  }

  private static String descriptor(Method m) {
    return MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
  }
}
