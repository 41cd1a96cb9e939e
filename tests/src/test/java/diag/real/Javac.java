package diag.real;

import diag.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A real program nobody wrote for the benchmark: the JDK's own compiler, javac, compiling a source tree of
 * 150 generated classes (generics, lambdas, streams, records) again and again, as a build server would. The
 * driver only writes the sources once and calls javac through {@code javax.tools}. Known answer, as JFR's
 * execution samples of the same run name it: CPU-bound in javac's code, {@code com.sun.tools.javac}.
 */
public final class Javac {
  private Javac() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("diag-javac");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
    List<String> sources = writeSources(dir.resolve("src"), 150);
    Path out = Files.createDirectories(dir.resolve("out"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> argsList = new ArrayList<>(List.of("-d", out.toString(), "-proc:none", "-nowarn"));
    argsList.addAll(sources);
    String[] javacArgs = argsList.toArray(String[]::new);
    Run.workers(List.of(new Run.Worker("build", () -> {
      while (Run.running()) {
        int rc = javac.run(null, null, System.err, javacArgs);
        if (rc != 0) {
          throw new IllegalStateException("javac exited " + rc);
        }
      }
    })));
  }

  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // a temporary directory: the system cleans it up in the end
    }
  }

  private static List<String> writeSources(Path src, int classes) throws IOException {
    Path pkg = Files.createDirectories(src.resolve("shop"));
    List<String> files = new ArrayList<>();
    for (int i = 0; i < classes; i++) {
      String prev = i == 0 ? "Object" : "Part" + (i - 1);
      String text = """
          package shop;

          import java.util.*;
          import java.util.function.*;
          import java.util.stream.*;

          public class Part%1$d<T extends Comparable<T>> {
            public record Line(String sku, int quantity, double price) {
              public double total() { return quantity * price; }
            }

            private final Map<String, List<Line>> byCustomer = new HashMap<>();
            private final %2$s previous = null;

            public void add(String customer, Line line) {
              byCustomer.computeIfAbsent(customer, k -> new ArrayList<>()).add(line);
            }

            public Map<String, Double> totals() {
              return byCustomer.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                  e -> e.getValue().stream().mapToDouble(Line::total).sum()));
            }

            public <R> List<R> map(Function<? super Line, ? extends R> f) {
              return byCustomer.values().stream().flatMap(List::stream).map(f).collect(Collectors.toList());
            }

            public Optional<T> best(List<T> items, Comparator<? super T> order) {
              return items.stream().filter(Objects::nonNull).max(order);
            }

            public String describe(Object o) {
              if (o instanceof Line l && l.quantity() > %1$d) {
                return "a big line of " + l.sku();
              } else if (o instanceof Line l) {
                return "a line of " + l.sku();
              } else if (o instanceof String s) {
                return "the text " + s.strip();
              }
              return String.valueOf(o);
            }

            static int fold(int[] xs) {
              int h = %1$d;
              for (int x : xs) {
                h = 31 * h + (x ^ (x >>> 7));
              }
              int seed = h;
              return IntStream.of(xs).map(x -> x * seed).reduce(0, Integer::sum);
            }
          }
          """.formatted(i, prev);
      Path file = pkg.resolve("Part" + i + ".java");
      Files.writeString(file, text);
      files.add(file.toString());
    }
    return files;
  }
}
