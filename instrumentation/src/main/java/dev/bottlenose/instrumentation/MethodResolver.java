package dev.bottlenose.instrumentation;

import dev.bottlenose.instrumentation.ProbeException.Reason;
import dev.bottlenose.model.MethodRef;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.objectweb.asm.Type;

/** Finds the one method a request names in a loaded class, with its descriptor filled in. */
final class MethodResolver {
  private MethodResolver() {}

  static MethodRef resolve(Class<?> c, MethodRef requested) throws ProbeException {
    String name = requested.methodName();
    if (name.equals("<clinit>")) {
      throw new ProbeException(Reason.NO_SUCH_METHOD, "the class initialiser of " + c.getName() + " already ran; it cannot be probed");
    }
    List<Executable> overloads = overloads(c, name);
    List<Executable> matching = new ArrayList<>();
    for (Executable e : overloads) {
      if (requested.descriptor() == null || requested.descriptor().equals(descriptor(e))) {
        matching.add(e);
      }
    }
    if (matching.isEmpty()) {
      throw new ProbeException(Reason.NO_SUCH_METHOD, overloads.isEmpty()
          ? "no method " + name + " in " + c.getName()
          : "no method " + name + requested.descriptor() + " in " + c.getName() + "; it has " + list(name, overloads));
    }
    if (matching.size() > 1) {
      throw new ProbeException(Reason.AMBIGUOUS_METHOD,
          name + " in " + c.getName() + " has " + matching.size() + " overloads, give a descriptor: " + list(name, matching));
    }
    Executable method = matching.get(0);
    if (Modifier.isAbstract(method.getModifiers())) {
      throw new ProbeException(Reason.ABSTRACT_METHOD, c.getName() + "." + name + descriptor(method) + " is abstract: it has no code to probe");
    }
    if (Modifier.isNative(method.getModifiers())) {
      throw new ProbeException(Reason.NATIVE_METHOD, c.getName() + "." + name + descriptor(method) + " is native: it has no bytecode to probe");
    }
    return new MethodRef(c.getName(), name, descriptor(method));
  }

  private static List<Executable> overloads(Class<?> c, String name) throws ProbeException {
    List<Executable> overloads = new ArrayList<>();
    try {
      if (name.equals("<init>")) {
        overloads.addAll(List.of(c.getDeclaredConstructors()));
      } else {
        for (Method m : c.getDeclaredMethods()) {
          if (m.getName().equals(name)) {
            overloads.add(m);
          }
        }
      }
    } catch (LinkageError e) {
      throw new ProbeException(Reason.NO_SUCH_METHOD, "cannot list the methods of " + c.getName() + ": " + e, e);
    }
    return overloads;
  }

  private static String descriptor(Executable e) {
    return e instanceof Method ? Type.getMethodDescriptor((Method) e)
        : Type.getConstructorDescriptor((java.lang.reflect.Constructor<?>) e);
  }

  private static String list(String name, List<Executable> overloads) {
    return overloads.stream().map(e -> name + descriptor(e)).sorted().collect(Collectors.joining(", "));
  }
}
