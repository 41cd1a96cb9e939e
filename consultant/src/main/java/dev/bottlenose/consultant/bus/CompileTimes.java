package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How long the target's JIT compilers took per compiled method, from a daemon's {@code /VM/JIT} resources
 * (one per tier and method, with the compilations' {@code count} and total {@code nanos} since the agent's
 * recording began). Per method: the mean compilation per tier, summed over the tiers, which is about what
 * compiling it again once costs. Retransforming a class throws its methods' compiled code away, so these
 * times price a probe insertion's recompiling before it is made (the agent's recording starts with JFR,
 * which itself makes the compiled code not entrant, so every hot method is compiled again after the attach
 * and is listed).
 */
final class CompileTimes {
  static final ResourcePath JIT = Hierarchy.VM.root().child("JIT");
  static final CompileTimes NONE = new CompileTimes(Map.of());
  /** "package.Class.method(descriptor)" → seconds. */
  private final Map<String, Double> perMethod;

  private CompileTimes(Map<String, Double> perMethod) {
    this.perMethod = Map.copyOf(perMethod);
  }

  /** From a {@code resources} answer for {@code /VM/JIT} at depth 2. */
  static CompileTimes of(DaemonReplies.Resources answer) {
    Map<String, Double> seconds = new HashMap<>();
    for (DaemonReplies.Resource r : answer.resources()) {
      ResourcePath path = r.path();
      Map<String, String> a = r.attributes();
      if (path.depth() != JIT.depth() + 2 || !a.containsKey("count") || !a.containsKey("nanos")) {
        continue;
      }
      long count = Long.parseLong(a.get("count"));
      long nanos = Long.parseLong(a.get("nanos"));
      if (count > 0) {
        seconds.merge(path.name(), nanos / 1e9 / count, Double::sum);
      }
    }
    return new CompileTimes(seconds);
  }

  /** The compile seconds of the listed ones of {@code methods} (/Code method paths). */
  double of(Collection<ResourcePath> methods) {
    return methods.stream().map(CompileTimes::name).filter(n -> n != null)
        .mapToDouble(n -> perMethod.getOrDefault(n, 0.0)).sum();
  }

  /** Whether method {@code method} (a /Code method path) was compiled since the recording began. */
  boolean lists(ResourcePath method) {
    String name = name(method);
    return name != null && perMethod.containsKey(name);
  }

  /** "package.Class.method(descriptor)" of a /Code method path; null for a shorter path. */
  private static String name(ResourcePath method) {
    List<String> s = method.segments();
    if (method.hierarchy() != Hierarchy.CODE || s.size() != 3) {
      return null;
    }
    return (s.get(0).isEmpty() ? "" : s.get(0) + ".") + s.get(1) + "." + s.get(2);
  }

  /** The compile seconds of every listed method inside {@code code} (a /Code path: root, package, class or method). */
  double within(ResourcePath code) {
    if (code.hierarchy() != Hierarchy.CODE) {
      return 0;
    }
    List<String> s = code.segments();
    double sum = 0;
    for (Map.Entry<String, Double> e : perMethod.entrySet()) {
      if (inside(e.getKey(), s)) {
        sum += e.getValue();
      }
    }
    return sum;
  }

  /** Whether "package.Class.method(descriptor)" is inside the /Code path with {@code segments}. */
  static boolean inside(String method, List<String> segments) {
    if (segments.isEmpty()) {
      return true;
    }
    int paren = method.indexOf('(');
    String name = paren < 0 ? method : method.substring(0, paren);
    int lastDot = name.lastIndexOf('.');
    if (lastDot < 0) {
      return false;
    }
    String qualifiedClass = name.substring(0, lastDot);
    int classDot = qualifiedClass.lastIndexOf('.');
    String pkg = classDot < 0 ? "" : qualifiedClass.substring(0, classDot);
    String cls = qualifiedClass.substring(classDot + 1);
    if (!pkg.equals(segments.get(0))) {
      return false;
    }
    if (segments.size() == 1) {
      return true;
    }
    if (!cls.equals(segments.get(1))) {
      return false;
    }
    return segments.size() == 2 || method.substring(lastDot + 1).equals(segments.get(2));
  }
}
