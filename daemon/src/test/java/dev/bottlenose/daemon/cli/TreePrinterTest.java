package dev.bottlenose.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.daemon.session.ResourceEntry;
import dev.bottlenose.model.ResourcePath;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TreePrinterTest {
  private static ResourceEntry r(String path, String kind) {
    return new ResourceEntry(ResourcePath.parse(path), kind, Map.of());
  }

  private static final List<ResourceEntry> TREE = List.of(r("/Code", "root"), r("/Code/a", "package"),
      r("/Code/a/X", "class"), r("/Code/a/Y", "class"), r("/Code/b", "package"), r("/Code/b/Z", "class"),
      r("/Code/c", "package"), r("/Threads", "root"), r("/Threads/main", "thread"));

  private static String print(int maxChildren, int base, List<ResourceEntry> resources) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new TreePrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8), maxChildren).print(resources, base);
    return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }

  @Test
  void indentsByDepthBelowTheBase() {
    assertThat(print(0, 1, TREE.subList(1, 4))).isEqualTo("a  [package]\n  X  [class]\n  Y  [class]\n");
  }

  @Test
  void trimsChildrenAndSaysHowManyWereLeftOutWhereTheyBelong() {
    assertThat(print(1, 0, TREE)).isEqualTo(String.join("\n", "/Code  [root]", "  a  [package]", "    X  [class]",
        "    (1 more)", "  (2 more)", "/Threads  [root]", "  main  [thread]", ""));
  }

  @Test
  void showsAttributesSorted() {
    ResourceEntry t = new ResourceEntry(ResourcePath.parse("/Threads/main"), "thread", Map.of("state", "RUNNABLE",
        "cpu", "12"));
    assertThat(print(0, 1, List.of(t))).isEqualTo("main  [thread]  cpu=12 state=RUNNABLE\n");
  }
}
