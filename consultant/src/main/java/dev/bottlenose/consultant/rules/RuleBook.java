package dev.bottlenose.consultant.rules;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.kie.api.KieBase;
import org.kie.api.io.Resource;
import org.kie.api.io.ResourceType;
import org.kie.internal.builder.CompositeKnowledgeBuilder;
import org.kie.internal.builder.KnowledgeBuilder;
import org.kie.internal.builder.KnowledgeBuilderError;
import org.kie.internal.builder.KnowledgeBuilderFactory;
import org.kie.internal.io.ResourceFactory;

/**
 * The compiled rules of the consultant (not API): the built-in DRL files beside these facts, plus any
 * {@code *.drl} from an extra directory. The built-in rules alone come from the executable model the build made
 * ({@link BuiltInRuleModel}); with an extra directory, all of them are compiled with KIE's knowledge builder.
 */
public final class RuleBook {
  public static final List<String> BUILT_IN = List.of("promising.drl", "why-refinement.drl", "where-refinement.drl", "verdict.drl");
  private static final String PACKAGE_PATH = "dev/bottlenose/consultant/rules/";

  private static volatile RuleBook builtIn;

  private final KieBase kieBase;

  private RuleBook(KieBase kieBase) {
    this.kieBase = kieBase;
  }

  /**
   * The built-in rules and the {@code *.drl} files of {@code extraDirectory} (null for none). The
   * built-in rules alone are made once per class loader (a second caller waits for the first), from the build's
   * executable model where there is one; a directory is compiled every time, so edited files take effect in the next
   * search.
   */
  public static RuleBook load(Path extraDirectory) {
    if (extraDirectory != null) {
      return compile(BUILT_IN, extraFiles(extraDirectory));
    }
    RuleBook book = builtIn;
    if (book == null) {
      synchronized (RuleBook.class) {
        book = builtIn;
        if (book == null) {
          KieBase model = BuiltInRuleModel.load(RuleBook.class.getClassLoader());
          book = model != null ? new RuleBook(model) : compile(BUILT_IN, List.of());
          builtIn = book;
        }
      }
    }
    return book;
  }

  /** Only the named built-in files, compiled from DRL (for tests of one concern). */
  static RuleBook of(String... builtInNames) {
    return compile(List.of(builtInNames), List.of());
  }

  /**
   * Compiles the files once, with a knowledge builder of their own: no module in KIE's process-wide repository
   * (which {@code KieHelper} uses, and its {@code verify()} then {@code build()} compiled everything twice).
   */
  private static RuleBook compile(List<String> builtIn, List<Path> extra) {
    KnowledgeBuilder builder = KnowledgeBuilderFactory.newKnowledgeBuilder(
        KnowledgeBuilderFactory.newKnowledgeBuilderConfiguration(RuleBook.class.getClassLoader()));
    CompositeKnowledgeBuilder batch = builder.batch();
    for (String name : builtIn) {
      batch.add(ResourceFactory.newClassPathResource(PACKAGE_PATH + name, RuleBook.class), ResourceType.DRL);
    }
    for (Path p : extra) {
      batch.add(ResourceFactory.newFileResource(p.toFile()), ResourceType.DRL);
    }
    batch.build();
    if (builder.hasErrors()) {
      StringBuilder sb = new StringBuilder("rules do not compile:");
      for (KnowledgeBuilderError e : builder.getErrors()) {
        Resource r = e.getResource();
        int[] lines = e.getLines();
        sb.append("\n  ").append(r == null ? "?" : r.getSourcePath()).append(':').append(lines.length == 0 ? 0 : lines[0])
            .append(": ").append(e.getMessage().strip());
      }
      throw new IllegalArgumentException(sb.toString());
    }
    return new RuleBook(builder.newKieBase());
  }

  /** The {@code *.drl} files of a directory, sorted by name. */
  public static List<Path> extraFiles(Path directory) {
    List<Path> list = new ArrayList<>();
    if (directory == null) {
      return list;
    }
    if (!Files.isDirectory(directory)) {
      throw new IllegalArgumentException("rules directory " + directory + " does not exist or is not a directory");
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory, "*.drl")) {
      ds.forEach(list::add);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot list rules directory " + directory + ": " + e.getMessage(), e);
    }
    list.sort(null);
    return list;
  }

  /** The names of the rules, by package ({@code package.rule}). */
  java.util.Set<String> ruleNames() {
    java.util.Set<String> names = new java.util.TreeSet<>();
    kieBase.getKiePackages().forEach(p -> p.getRules().forEach(r -> names.add(p.getName() + "." + r.getName())));
    return names;
  }

  public RuleSession newSession() {
    return new RuleSession(kieBase.newKieSession());
  }
}
