package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The shell completion the distribution ships (share/bash-completion/completions/bottlenose, which
 * {@code bottlenose completion} prints), sourced in a real bash whose completion function is called as bash calls it
 * on TAB: COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT set, the candidates read from COMPREPLY.
 */
class CompletionTest {
  /** The distribution the build made as a directory, beside its .tar.gz. */
  private static final Path DIST = Path.of(System.getProperty("bottlenose.dist.archive", "")
      .replaceFirst("\\.tar\\.gz$", "")).toAbsolutePath();
  private static final Path SCRIPT = DIST.resolve("share/bash-completion/completions/bottlenose");

  @TempDir
  static Path dir;

  @BeforeAll
  static void built() {
    assertThat(SCRIPT).as("the completion script (mvn package builds it in dist/)").isRegularFile();
  }

  @Test
  void completesCommandsOptionsAndValuesOfBothJars() throws Exception {
    Map<String, List<String>> c = complete(List.of("bottlenose se", "bottlenose search --bu", "bottlenose measure --fo",
        "bottlenose jv", "bottlenose exp", "bottlenose ", "bottlenose export s1 --format s",
        "bottlenose measure --probe wall", "bottlenose metric l", "bottlenose help d", "bottlenose com"));
    assertThat(c.get("bottlenose se")).containsExactlyInAnyOrder("search", "serve");
    assertThat(c.get("bottlenose search --bu")).containsExactly("--budget");
    assertThat(c.get("bottlenose measure --fo")).containsExactlyInAnyOrder("--focus", "--for");
    // a command of the daemon jar and one of the service jar
    assertThat(c.get("bottlenose jv")).containsExactly("jvms");
    assertThat(c.get("bottlenose exp")).containsExactly("export");
    assertThat(c.get("bottlenose ")).contains("jvms", "resources", "measure", "ledger", "search", "serve", "demo",
        "export", "completion", "help").doesNotContain("class-archive-training");
    // option values picocli knows
    assertThat(c.get("bottlenose export s1 --format s")).containsExactlyInAnyOrder("svg", "speedscope");
    assertThat(c.get("bottlenose measure --probe wall")).containsExactlyInAnyOrder("wall_inclusive", "wall_exclusive");
    assertThat(c.get("bottlenose metric l")).containsExactly("list");
    assertThat(c.get("bottlenose help d")).containsExactlyInAnyOrder("demo", "daemon");
    assertThat(c.get("bottlenose com")).containsExactly("completion");
  }

  /** Every command of both jars and every option of each, as their picocli specs have them now. */
  @Test
  void knowsEveryCommandAndOptionOfBothJarsSpecs() throws Exception {
    Map<String, CommandSpec> commands = new LinkedHashMap<>();
    for (CommandLine jar : List.of(dev.bottlenose.daemon.cli.Main.commandLine(),
        dev.bottlenose.web.cli.Main.commandLine())) {
      for (CommandLine command : new LinkedHashSet<>(jar.getSubcommands().values())) {
        if (!command.getCommandSpec().usageMessage().hidden()) {
          commands.putIfAbsent(command.getCommandName(), command.getCommandSpec());
        }
      }
    }
    assertThat(commands).containsKeys("jvms", "measure", "search", "export", "completion");
    List<String> lines = new ArrayList<>();
    lines.add("bottlenose ");
    Map<String, Set<String>> expected = new LinkedHashMap<>();
    expected.put("bottlenose ", commands.keySet());
    lines.add("bottlenose -");
    expected.put("bottlenose -", Set.of("--help", "--version", "--verbose"));
    collect("bottlenose", commands.values(), lines, expected);
    Map<String, List<String>> completed = complete(lines);
    expected.forEach((line, names) -> assertThat(completed.get(line)).as(line).containsAll(names));
  }

  private static void collect(String prefix, Iterable<CommandSpec> commands, List<String> lines,
      Map<String, Set<String>> expected) {
    for (CommandSpec command : commands) {
      String line = prefix + " " + command.name() + " -";
      Set<String> options = new LinkedHashSet<>();
      for (OptionSpec option : command.options()) {
        if (!option.hidden()) {
          options.addAll(Arrays.asList(option.names()));
        }
      }
      lines.add(line);
      expected.put(line, options);
      if (!command.subcommands().isEmpty()) {
        String sub = prefix + " " + command.name() + " ";
        lines.add(sub);
        expected.put(sub, command.subcommands().keySet());
        collect(prefix + " " + command.name(), new LinkedHashSet<>(command.subcommands().values()).stream()
            .map(CommandLine::getCommandSpec).toList(), lines, expected);
      }
    }
  }

  @Test
  void theLauncherPrintsTheScriptAndSaysHowToUseIt() throws Exception {
    Result printed = run(List.of(DIST.resolve("bin/bottlenose").toString(), "completion"));
    assertThat(printed.code).as(printed.err).isZero();
    assertThat(printed.out).isEqualTo(Files.readString(SCRIPT));
    assertThat(printed.err).isEmpty();
    Result help = run(List.of(DIST.resolve("bin/bottlenose").toString(), "completion", "--help"));
    assertThat(help.code).as(help.err).isZero();
    assertThat(help.out).startsWith("Usage: bottlenose completion").contains("source <(bottlenose completion)");
  }

  /**
   * The candidates bash completion offers for each line (the word being completed is its last, empty when it ends
   * in a space), from one bash that sourced the script.
   */
  private static Map<String, List<String>> complete(List<String> lines) throws IOException, InterruptedException {
    Path driver = dir.resolve("complete.sh");
    Files.writeString(driver, """
        source "$1"
        # compopt only works while bash itself runs a completion function; these calls are the test's
        compopt() { :; }
        while IFS= read -r line; do
          read -r -a COMP_WORDS <<<"$line"
          [[ "$line" == *" " ]] && COMP_WORDS+=("")
          COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
          COMP_LINE="$line"
          COMP_POINT=${#line}
          COMPREPLY=()
          _complete_bottlenose bottlenose "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
          printf '%s\\t%s\\n' "$line" "${COMPREPLY[*]}"
        done
        """);
    Path input = dir.resolve("lines.txt");
    Files.writeString(input, String.join("\n", lines) + "\n");
    Result r = run(List.of("bash", "--norc", "--noprofile", driver.toString(), SCRIPT.toString()), input);
    assertThat(r.code).as(r.err).isZero();
    assertThat(r.err).isEmpty();
    Map<String, List<String>> completed = new LinkedHashMap<>();
    for (String out : r.out.split("\n")) {
      String[] lineAndWords = out.split("\t", -1);
      completed.put(lineAndWords[0], lineAndWords[1].isEmpty() ? List.of() : List.of(lineAndWords[1].split(" ")));
    }
    assertThat(completed.keySet()).containsExactlyInAnyOrderElementsOf(new LinkedHashSet<>(lines));
    return completed;
  }

  private record Result(int code, String out, String err) {}

  private static Result run(List<String> cmd) throws IOException, InterruptedException {
    return run(cmd, null);
  }

  private static Result run(List<String> cmd, Path input) throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile());
    if (input != null) {
      pb.redirectInput(input.toFile());
    }
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("BOTTLENOSE_CLASS_ARCHIVES", "off");
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError(cmd + " did not end within 120 s");
    }
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
