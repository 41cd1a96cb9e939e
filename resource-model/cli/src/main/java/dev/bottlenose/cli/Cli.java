package dev.bottlenose.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * How a Bottlenose main runs its picocli command: every command and sub-command gets {@code --help} and
 * {@code --version}, {@link Duration} options read {@link Durations}, an argument
 * starting with {@code @} is an argument like any other (no argument files); a usage error prints
 * {@code bottlenose CMD: message} and that command's usage on stderr and ends with {@link ExitCodes#USAGE}
 * (also for a {@link UsageException} the command throws), any other failure prints
 * {@code bottlenose CMD: message} and ends with {@link ExitCodes#FAILED}; otherwise the command's own code. Every
 * command takes {@code -v}: the libraries' log from INFO up, where by default only their SEVERE records print
 * ({@link Logging}). Every command's usage ends with its exit codes: 0, 1 and 2, then those its {@code @Command}
 * declares itself ({@code exitCodeList}, as {@code search} declares 3).
 */
public final class Cli {
  private Cli() {}

  /** Runs {@code command} on {@code args} and exits the JVM with its code. */
  public static void exit(Object command, String... args) {
    System.exit(run(command, args, System.out, System.err));
  }

  /** Runs {@code command} (a picocli {@code @Command}) on {@code args}, writing to {@code out} and {@code err}. */
  public static int run(Object command, String[] args, PrintStream out, PrintStream err) {
    Logging.configure(Logging.verbose(args), err);
    return commandLine(command, out, err).execute(args);
  }

  /** The configured command line of {@code command}, for a main that wants to look at it before running it. */
  public static CommandLine commandLine(Object command, PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(command);
    standardOptions(cl);
    cl.setExpandAtFiles(false);
    cl.registerConverter(Duration.class, new Durations.Converter());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    cl.setParameterExceptionHandler((e, args) -> usageError(e.getCommandLine(), e.getMessage()));
    cl.setExecutionExceptionHandler((e, commandLine, parsed) -> {
      if (e instanceof UsageException) {
        return usageError(commandLine, e.getMessage());
      }
      Throwable cause = (e instanceof ExecutionException || e instanceof CompletionException) && e.getCause() != null
          ? e.getCause() : e;
      commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": "
          + (cause.getMessage() == null ? cause.toString() : cause.getMessage()));
      return ExitCodes.FAILED;
    });
    return cl;
  }

  private static int usageError(CommandLine commandLine, String message) {
    PrintWriter err = commandLine.getErr();
    err.println(commandLine.getCommandSpec().qualifiedName() + ": " + message);
    commandLine.usage(err);
    return ExitCodes.USAGE;
  }

  private static void standardOptions(CommandLine cl) {
    CommandSpec spec = cl.getCommandSpec();
    spec.mixinStandardHelpOptions(true);
    if (!spec.optionsMap().containsKey("--version")) {
      // picocli's help command has its own --help, so the standard options are not mixed into it
      spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
          .description("Print version information and exit.").build());
    }
    Map<String, String> exitCodes = new LinkedHashMap<>();
    exitCodes.put(ExitCodes.OK + "", "done");
    exitCodes.put(ExitCodes.FAILED + "", "a runtime failure (its message on stderr)");
    exitCodes.put(ExitCodes.USAGE + "", "a usage error (the command line is wrong; its usage on stderr)");
    exitCodes.putAll(spec.usageMessage().exitCodeList());
    spec.usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(exitCodes);
    if (spec.usageMessage().footer().length > 0 && spec.usageMessage().footerHeading().isEmpty()) {
      spec.usageMessage().footerHeading("%n");
    }
    spec.versionProvider(new Version());
    spec.addOption(OptionSpec.builder("-v", "--verbose")
        .description("print the libraries' log too (Hazelcast, Vert.x, Drools) from INFO up").build());
    cl.getSubcommands().values().forEach(Cli::standardOptions);
  }
}
