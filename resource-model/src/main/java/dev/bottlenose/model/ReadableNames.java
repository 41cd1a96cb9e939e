package dev.bottlenose.model;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Resources in the words a Java developer reads in a stack trace or a profiler, for people rather than for
 * the tool: {@code com.acme.Cache.get(Object)} for {@code /Code/com.acme/Cache/get(Ljava/lang/Object;)Ljava/lang/Object;},
 * {@code thread worker-1} for {@code /Threads/pool/worker-1}, {@code monitors of com.acme.Cache} for {@code
 * /SyncObjects/monitors/com.acme.Cache}. Hidden classes lose their address suffix ({@code Task$$Lambda$7+0x0000…/123}
 * reads {@code Task$$Lambda}). The path stays the resource's name; these words are only for showing it.
 */
public final class ReadableNames {
  /** A hidden class's address and number: {@code +0x00007f71cc007860.44745002}, {@code /0x00007f6f28003000}, {@code /112810359}, {@code $7}. */
  private static final Pattern HIDDEN_SUFFIX = Pattern.compile("(\\$\\$Lambda)(\\$\\d+)?([+/]0x[0-9a-fA-F]+)?([./]\\d+)?");

  private ReadableNames() {}

  /** The resource {@code path} names, in words; a root reads as "all …" of its hierarchy. */
  public static String of(ResourcePath path) {
    List<String> s = path.segments();
    return switch (path.hierarchy()) {
      case CODE -> code(path);
      case THREADS -> s.isEmpty() ? "all threads" : s.size() == 1 ? "threads of " + s.get(0) : "thread " + s.get(s.size() - 1);
      case SYNC_OBJECTS -> syncObject(s);
      case MEMORY -> s.isEmpty() ? "all allocated types" : "objects of " + className(String.join("/", s));
      case IO -> io(s);
      case PROCESS -> s.isEmpty() ? "all processes" : "process " + String.join("/", s);
      case MACHINE -> s.isEmpty() ? "all machines" : "machine " + String.join("/", s);
      case VM -> s.isEmpty() ? "the VM" : "VM " + String.join(" ", s);
    };
  }

  /**
   * A {@code /Code} path in Java's words: {@code package com.acme}, {@code class com.acme.Cache}, {@code
   * com.acme.Cache.get(Object)}; a method without a descriptor reads {@code com.acme.Cache.get(...)}.
   */
  public static String code(ResourcePath path) {
    if (path.hierarchy() != Hierarchy.CODE) {
      throw new IllegalArgumentException("not a /Code path: " + path);
    }
    if (path.isRoot()) {
      return "all code";
    }
    if (path.depth() == 1) {
      return "package " + path.segments().get(0);
    }
    String cls = className(CodePaths.className(path));
    if (path.depth() == 2) {
      return "class " + cls;
    }
    MethodRef m = CodePaths.methodRef(path);
    return cls + "." + m.methodName() + (m.descriptor() == null ? "(...)" : parameters(m.descriptor()));
  }

  /** The parameter list of a JVM method descriptor in Java's words: {@code (Object, int, byte[])}. */
  public static String parameters(String descriptor) {
    int close = descriptor.indexOf(')');
    if (!descriptor.startsWith("(") || close < 0) {
      return descriptor;
    }
    List<String> types = new ArrayList<>();
    int i = 1;
    while (i < close) {
      int dims = 0;
      while (descriptor.charAt(i) == '[') {
        dims++;
        i++;
      }
      String type;
      if (descriptor.charAt(i) == 'L') {
        int end = descriptor.indexOf(';', i);
        String name = descriptor.substring(i + 1, end);
        type = name.substring(name.lastIndexOf('/') + 1);
        i = end + 1;
      } else {
        type = primitive(descriptor.charAt(i));
        i++;
      }
      types.add(type + "[]".repeat(dims));
    }
    return "(" + String.join(", ", types) + ")";
  }

  /** A binary class name with a hidden class's address suffix left out. */
  public static String className(String binaryName) {
    return HIDDEN_SUFFIX.matcher(binaryName).replaceAll("$1");
  }

  /** A primitive type's name for its descriptor letter ({@code I} is {@code int}); any other letter as it is. */
  public static String primitive(char c) {
    return switch (c) {
      case 'B' -> "byte";
      case 'C' -> "char";
      case 'D' -> "double";
      case 'F' -> "float";
      case 'I' -> "int";
      case 'J' -> "long";
      case 'S' -> "short";
      case 'Z' -> "boolean";
      default -> String.valueOf(c);
    };
  }

  private static String syncObject(List<String> s) {
    if (s.isEmpty()) {
      return "all locks and monitors";
    }
    String kind = s.get(0).equals("locks") ? "locks" : s.get(0).equals("monitors") ? "monitors" : s.get(0);
    return s.size() == 1 ? "all " + kind : kind + " of " + className(String.join("/", s.subList(1, s.size())));
  }

  private static String io(List<String> s) {
    if (s.isEmpty()) {
      return "all files and sockets";
    }
    String rest = String.join("/", s.subList(1, s.size()));
    return switch (s.get(0)) {
      case "file" -> s.size() == 1 ? "files" : "file " + rest;
      case "socket" -> s.size() == 1 ? "sockets" : "socket " + rest;
      default -> String.join("/", s);
    };
  }
}
