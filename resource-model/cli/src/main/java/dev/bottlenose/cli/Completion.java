package dev.bottlenose.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * The shell completion of {@code bottlenose}: one bash script (zsh runs it through bashcompinit) for the commands
 * of both jars, which picocli's {@link AutoComplete} writes from their command specs.
 *
 * <p>Neither jar holds the other's commands, so the script is made at build time, by {@link #main} with both fat
 * jars on one class path (the dist module), and ships in the distribution as
 * {@code share/bash-completion/completions/bottlenose}. The launcher prints that file for
 * {@code bottlenose completion} without starting a JVM; this command (the daemon jar's) answers {@code --help} and
 * prints the file the launcher names in {@link #SCRIPT_PROPERTY} when it is run some other way.
 */
@Command(name = "completion",
    description = "print the shell completion script of bottlenose, for bash and zsh: the commands, their options and"
        + " the values of options that take one of a few",
    footer = {"", "Complete bottlenose's commands in this shell, and in every new one when this line is in ~/.bashrc"
        + " (zsh: ~/.zshrc):",
        "  source <(bottlenose completion)",
        "Or, with bash-completion installed, once for every new bash:",
        "  mkdir -p ~/.local/share/bash-completion/completions",
        "  bottlenose completion > ~/.local/share/bash-completion/completions/bottlenose",
        "bash-completion also finds the script the distribution ships, share/bash-completion/completions/bottlenose,"
        + " when the distribution's bin/ is on the PATH."})
public final class Completion implements Callable<Integer> {
  /** The system property in which the launcher names the script the build made. */
  public static final String SCRIPT_PROPERTY = "bottlenose.completion.script";

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    String script = System.getProperty(SCRIPT_PROPERTY);
    if (script == null) {
      throw new IllegalStateException("no script to print: the launcher, bin/bottlenose, names the one the build made");
    }
    if (!Files.isRegularFile(Path.of(script))) {
      throw new IllegalStateException(script + " is missing: this installation is incomplete");
    }
    spec.commandLine().getOut().print(Files.readString(Path.of(script), StandardCharsets.UTF_8));
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }

  /**
   * Writes the completion script of the jars' command lines to {@code args[0]}; {@code args[1..]} are the jars' main
   * classes, each with a {@code public static CommandLine commandLine()}, and all of them on the class path.
   */
  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: Completion OUTPUT MAIN-CLASS...");
      System.exit(ExitCodes.USAGE);
    }
    List<CommandLine> jars = new ArrayList<>();
    for (String main : List.of(args).subList(1, args.length)) {
      jars.add(commandLineOf(main));
    }
    Path out = Path.of(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, script(jars), StandardCharsets.UTF_8);
  }

  /**
   * The bash completion script of a command named as the first of {@code jars}, with that one's options, and whose
   * commands are those of every command line in {@code jars} (the first jar's, where two have one of the same name).
   */
  public static String script(List<CommandLine> jars) {
    CommandSpec first = jars.get(0).getCommandSpec();
    // a root of no class of its own: each jar's commands name their own jar's root class as @ParentCommand
    CommandSpec root = CommandSpec.create().name(first.name());
    first.options().forEach(option -> root.addOption(OptionSpec.builder(option).build()));
    CommandLine merged = new CommandLine(root);
    for (CommandLine jar : jars) {
      for (CommandLine command : new LinkedHashSet<>(jar.getSubcommands().values())) {
        String name = command.getCommandName();
        if (!merged.getSubcommands().containsKey(name)) {
          merged.addSubcommand(name, command, command.getCommandSpec().aliases());
        }
      }
    }
    return AutoComplete.bash(root.name(), merged);
  }

  private static CommandLine commandLineOf(String mainClass) throws ReflectiveOperationException {
    return (CommandLine) Class.forName(mainClass).getMethod("commandLine").invoke(null);
  }
}
