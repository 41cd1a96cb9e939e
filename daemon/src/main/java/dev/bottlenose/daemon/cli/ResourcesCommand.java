package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.daemon.session.TargetSession;
import java.util.List;

/** {@code resources --pid N [PATH] [--depth D]}: a hierarchy or a subtree as an indented tree. */
final class ResourcesCommand {
  private ResourcesCommand() {}

  static int run(Args a, Console console) {
    a.atMostPositional(1);
    String path = a.positional().isEmpty() ? "/" : a.positional().get(0);
    int depth = a.intOption("depth", 1);
    try (TargetSession session = Targets.attach(a, console, "cli")) {
      print(session.resources(path, depth), console, 0);
    }
    return 0;
  }

  static void print(List<ResourceEntry> resources, Console console, int maxChildren) {
    int base = resources.stream().mapToInt(r -> r.path().depth()).min().orElse(0);
    new TreePrinter(console.out(), maxChildren).print(resources, base);
  }
}
