package dev.bottlenose.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the reference page of the built-in metrics (metrics-dsl/docs/metrics.md) from the library
 * itself. Run: {@code java -cp metrics-dsl/target/classes:resource-model/target/classes
 * dev.bottlenose.metrics.ReferenceGenerator metrics-dsl/docs/metrics.md}.
 */
public final class ReferenceGenerator {

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "metrics-dsl/docs/metrics.md");
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    Files.writeString(out, page(MetricLibrary.builtin()), StandardCharsets.UTF_8);
    System.out.println("wrote " + out);
  }

  /** The page's Markdown text. */
  public static String page(MetricLibrary library) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Built-in metrics\n\n")
        .append("Generated from `metrics-dsl/src/main/resources/dev/bottlenose/metrics/builtin.metrics` by\n")
        .append("`dev.bottlenose.metrics.ReferenceGenerator`; do not edit by hand. The language is described in\n")
        .append("`metrics-dsl/README.md`.\n\n")
        .append("| metric | unit | report | description |\n| --- | --- | --- | --- |\n");
    for (MetricDefinition d : library.metrics()) {
      sb.append("| [`").append(d.name()).append("`](#").append(d.name()).append(") | ").append(d.unit()).append(" | ")
          .append(d.report()).append(" | ").append(d.description().replace("|", "\\|")).append(" |\n");
    }
    for (MetricDefinition d : library.metrics()) {
      section(sb, d);
    }
    return sb.toString();
  }

  private static void section(StringBuilder sb, MetricDefinition d) {
    sb.append("\n## ").append(d.name()).append("\n\n").append(d.description()).append(".\n\n");
    if (!d.notes().isEmpty()) {
      sb.append(d.notes()).append("\n\n");
    }
    sb.append("| | |\n| --- | --- |\n");
    row(sb, "unit", d.unit());
    row(sb, d.isDerived() ? "value" : "accumulates", d.accumulates());
    if (!d.isDerived()) {
      row(sb, "constraint", d.constraint());
      row(sb, "form", d.form());
    }
    row(sb, "refinements", String.join(", ", d.refinements()));
    row(sb, "combine", d.combine());
    row(sb, "report", d.report());
    sb.append("\n```\n").append(d.definition()).append("\n```\n");
  }

  private static void row(StringBuilder sb, String name, String value) {
    sb.append("| ").append(name).append(" | `").append(value).append("` |\n");
  }

  private ReferenceGenerator() {}
}
