package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.CodePlaces;
import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.daemon.session.TargetSession;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code resources --pid N [PATH] [--depth D]}: a hierarchy or a subtree as an indented tree. */
@Command(name = "resources", description = "print a hierarchy or a subtree (PATH default /)")
final class ResourcesCommand implements Callable<Integer> {
  @ParentCommand
  Main main;

  @Mixin
  TargetOptions target;

  @Mixin
  JsonOption output;

  @Parameters(arity = "0..1", paramLabel = "PATH", description = "the subtree to print: a path, or"
      + " a package, class or method as Java writes it (com.acme.Cache::get); default /")
  String path = "/";

  @Option(names = "--depth", paramLabel = "D", description = "how many levels below PATH (default: 1)")
  int depth = 1;

  @Override
  public Integer call() {
    try (TargetSession session = target.attach(main.console, "cli")) {
      List<ResourceEntry> resources = session.resources(CodePlaces.path(session, path), depth);
      if (output.json) {
        JsonOption.print(main.console, JsonOption.object("pid", session.pid(), "path", path, "depth", depth,
            "resources", resources.stream().map(ResourceEntry::toJson).toList()));
      } else {
        print(resources, main.console, 0);
      }
    }
    return 0;
  }

  static void print(List<ResourceEntry> resources, Console console, int maxChildren) {
    int base = resources.stream().mapToInt(r -> r.path().depth()).min().orElse(0);
    new TreePrinter(console.out(), maxChildren).print(resources, base);
  }
}
