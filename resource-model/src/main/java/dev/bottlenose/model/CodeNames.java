package dev.bottlenose.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A place in the code written the way a Java developer writes it, resolved to its {@code /Code} path: a package
 * ({@code com.acme}), a class ({@code com.acme.Cache}; a nested one as {@code com.acme.Outer.Inner} or {@code
 * com.acme.Outer$Inner}), a method ({@code com.acme.Cache::get}, {@code com.acme.Cache#get}, {@code
 * com.acme.Cache.get}, with its parameters to pick an overload: {@code com.acme.Cache.get(Object)}, {@code
 * get(java.lang.Object)}, {@code get(String...)}). A class of the default package is written without one
 * ({@code Main::run}, a nested one {@code Main$Inner}). The inverse of {@link ReadableNames#code}. Which of the readings exists is looked up in the
 * target's {@code /Code} hierarchy; none is an error saying how far the name was found, several an error listing
 * them.
 */
public final class CodeNames {
  private CodeNames() {}

  /** Whether {@code text} is written as a Java name rather than as a path ({@code /Code/…}) or a focus ({@code <…>}). */
  public static boolean isJavaName(String text) {
    String t = text.strip();
    return !t.isEmpty() && !t.startsWith("/") && !t.startsWith("<");
  }

  /**
   * The {@code /Code} path {@code text} names. {@code childrenOf} gives the children of a {@code /Code} path in the
   * target (the packages under {@code /Code}, a package's classes, a class's methods), empty when there is no such
   * path.
   *
   * @throws IllegalArgumentException when the text is not a Java name, names nothing, or names several places
   */
  public static ResourcePath resolve(String text, Function<ResourcePath, List<ResourcePath>> childrenOf) {
    Name name = Name.parse(text.strip());
    Lookup lookup = new Lookup(childrenOf);
    Set<ResourcePath> found = new LinkedHashSet<>();
    String furthest = null;
    int furthestDepth = -1;
    for (Reading r : name.readings()) {
      Lookup.Result result = lookup.find(r, name.parameters);
      found.addAll(result.paths());
      if (result.paths().isEmpty() && result.depth() > furthestDepth) {
        furthest = result.why();
        furthestDepth = result.depth();
      }
    }
    if (found.isEmpty()) {
      throw new IllegalArgumentException("no code matches '" + text.strip() + "': " + furthest);
    }
    if (found.size() > 1) {
      throw new IllegalArgumentException("'" + text.strip() + "' names " + found.size() + " places; write one of: "
          + found.stream().map(p -> ReadableNames.code(p) + "  (" + p + ")").collect(Collectors.joining("; ")));
    }
    return found.iterator().next();
  }

  /** One way to read a name: a package, a class in it (binary simple name), a method of that class. */
  private record Reading(String pkg, String cls, String method) {}

  /** The text taken apart: the dotted name, an explicit method ({@code ::} or {@code #}), the parameters or null. */
  private record Name(List<String> parts, String method, List<String> parameters) {
    static Name parse(String text) {
      String rest = text;
      List<String> parameters = null;
      int open = rest.indexOf('(');
      if (open >= 0) {
        if (!rest.endsWith(")")) {
          throw new IllegalArgumentException("'" + text + "': a parameter list ends with ')'");
        }
        String inside = rest.substring(open + 1, rest.length() - 1).strip();
        parameters = new ArrayList<>();
        for (String p : splitTopLevel(inside)) {
          parameters.add(simpleType(p));
        }
        rest = rest.substring(0, open).strip();
      }
      String method = null;
      for (String separator : List.of("::", "#")) {
        int at = rest.indexOf(separator);
        if (at >= 0) {
          method = rest.substring(at + separator.length()).strip();
          rest = rest.substring(0, at).strip();
          break;
        }
      }
      List<String> parts = List.of(rest.split("\\.", -1));
      for (String part : parts) {
        if (!isIdentifier(part)) {
          throw new IllegalArgumentException("'" + text + "' is not a Java name (com.acme.Cache::get,"
              + " com.acme.Cache.get(Object), com.acme.Cache, com.acme) nor a path (/Code/…) or a focus (<…>)");
        }
      }
      if (method != null && !isIdentifier(method) && !method.equals("<init>") && !method.equals("<clinit>")) {
        throw new IllegalArgumentException("'" + text + "': '" + method + "' is not a method name");
      }
      return new Name(parts, method, parameters);
    }

    /** Every reading of the name, the package taking each number of leading parts in turn. */
    List<Reading> readings() {
      List<Reading> readings = new ArrayList<>();
      if (method != null) {
        classReadings(parts, method, readings);
        return readings;
      }
      if (parameters == null) {
        readings.add(new Reading(String.join(".", parts), null, null));
        classReadings(parts, null, readings);
      }
      if (parts.size() >= 2) {
        classReadings(parts.subList(0, parts.size() - 1), parts.get(parts.size() - 1), readings);
      }
      return readings;
    }

    /** The class readings of a dotted name; the default package only for a name without dots ({@code Main$Inner}). */
    private static void classReadings(List<String> qualified, String method, List<Reading> readings) {
      for (int k = qualified.size() == 1 ? 0 : 1; k < qualified.size(); k++) {
        String pkg = k == 0 ? CodePaths.DEFAULT_PACKAGE : String.join(".", qualified.subList(0, k));
        readings.add(new Reading(pkg, String.join("$", qualified.subList(k, qualified.size())), method));
      }
    }
  }

  /** The hierarchy's children, asked once per path. */
  private static final class Lookup {
    private final Function<ResourcePath, List<ResourcePath>> childrenOf;
    private final Map<ResourcePath, List<ResourcePath>> asked = new HashMap<>();

    Lookup(Function<ResourcePath, List<ResourcePath>> childrenOf) {
      this.childrenOf = childrenOf;
    }

    /** What a lookup found, or why not and how deep it got (0 package, 1 class, 2 method). */
    record Result(List<ResourcePath> paths, String why, int depth) {}

    Result find(Reading r, List<String> parameters) {
      ResourcePath pkg = ResourcePath.of(Hierarchy.CODE, r.pkg());
      if (!children(ResourcePath.of(Hierarchy.CODE)).contains(pkg)) {
        return new Result(List.of(), "no package " + r.pkg() + " among the loaded classes", 0);
      }
      if (r.cls() == null) {
        return new Result(List.of(pkg), null, 0);
      }
      ResourcePath cls = pkg.child(r.cls());
      if (!children(pkg).contains(cls)) {
        return new Result(List.of(), "package " + r.pkg() + " has no loaded class " + r.cls(), 1);
      }
      if (r.method() == null) {
        return new Result(List.of(cls), null, 1);
      }
      List<ResourcePath> named = children(cls).stream()
          .filter(m -> CodePaths.methodRef(m).methodName().equals(r.method())).toList();
      List<ResourcePath> matching = named.stream().filter(m -> parametersMatch(m, parameters)).toList();
      if (named.isEmpty()) {
        return new Result(List.of(), ReadableNames.code(cls) + " has no method " + r.method(), 2);
      }
      if (matching.isEmpty()) {
        return new Result(List.of(), ReadableNames.code(cls) + " has no " + r.method() + "(" + String.join(", ", parameters)
            + "); it has " + named.stream().map(ReadableNames::code).collect(Collectors.joining(", ")), 2);
      }
      return new Result(matching, null, 2);
    }

    private List<ResourcePath> children(ResourcePath path) {
      return asked.computeIfAbsent(path, childrenOf);
    }

    private static boolean parametersMatch(ResourcePath method, List<String> parameters) {
      if (parameters == null) {
        return true;
      }
      String descriptor = CodePaths.methodRef(method).descriptor();
      if (descriptor == null) {
        return false;
      }
      String listed = ReadableNames.parameters(descriptor);
      String inside = listed.substring(1, listed.length() - 1);
      List<String> types = inside.isEmpty() ? List.of() : splitTopLevel(inside).stream().map(CodeNames::simpleType).toList();
      return types.equals(parameters);
    }
  }

  /** A type as written ({@code java.util.Map<String, Integer>}, {@code Outer.Inner}, {@code String...}) by its simple name. */
  private static String simpleType(String written) {
    String t = written.strip();
    int generic = t.indexOf('<');
    String dims = "";
    if (t.endsWith("...")) {
      t = t.substring(0, t.length() - 3).strip();
      dims = "[]";
    }
    if (generic >= 0) {
      int close = t.lastIndexOf('>');
      t = t.substring(0, generic) + (close > generic ? t.substring(close + 1) : "");
    }
    t = t.replace(" ", "");
    while (t.endsWith("[]")) {
      dims += "[]";
      t = t.substring(0, t.length() - 2);
    }
    int cut = Math.max(t.lastIndexOf('.'), t.lastIndexOf('$'));
    return t.substring(cut + 1) + dims;
  }

  /** {@code a, Map<K, V>, b} split at the commas outside angle brackets. */
  private static List<String> splitTopLevel(String list) {
    List<String> out = new ArrayList<>();
    if (list.isBlank()) {
      return out;
    }
    int depth = 0;
    int start = 0;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (c == '<') {
        depth++;
      } else if (c == '>') {
        depth--;
      } else if (c == ',' && depth == 0) {
        out.add(list.substring(start, i));
        start = i + 1;
      }
    }
    out.add(list.substring(start));
    return out;
  }

  private static boolean isIdentifier(String s) {
    if (s.isEmpty() || !Character.isJavaIdentifierStart(s.charAt(0))) {
      return false;
    }
    return s.chars().skip(1).allMatch(Character::isJavaIdentifierPart);
  }
}
