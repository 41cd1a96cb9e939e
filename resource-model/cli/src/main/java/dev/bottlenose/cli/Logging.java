package dev.bottlenose.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * What a command's libraries may print. Hazelcast, Vert.x, Netty and Drools log through java.util.logging (SLF4J
 * is bound to it), and by default only their SEVERE records reach stderr, so that a clean run prints only
 * Bottlenose's own lines; Bottlenose's own loggers print warnings. With {@code -v} ({@code --verbose}) every
 * logger prints INFO and up. Each record is one line: {@code bottlenose: [logger] message}.
 */
public final class Logging {
  /** The loggers whose level this class sets: held, as the JDK keeps loggers weakly and a level would be lost. */
  private static final List<Logger> HELD = List.of(Logger.getLogger(""), Logger.getLogger("dev.bottlenose"),
      Logger.getLogger("com.hazelcast"));

  private Logging() {}

  /** Quiet (the default) or verbose; writes to {@code err}. Called again, it replaces the earlier set-up. */
  public static synchronized void configure(boolean verbose, PrintStream err) {
    LogManager.getLogManager().reset();
    Logger root = HELD.get(0);
    root.setLevel(verbose ? Level.INFO : Level.SEVERE);
    HELD.get(1).setLevel(verbose ? Level.INFO : Level.WARNING);
    HELD.get(2).setLevel(verbose ? Level.INFO : Level.SEVERE);
    Handler handler = new StreamHandler(err, new OneLine()) {
      @Override
      public synchronized void publish(LogRecord record) {
        super.publish(record);
        flush();
      }
    };
    handler.setLevel(Level.ALL);
    root.addHandler(handler);
    // SLF4J finds its provider here, on this thread, before any library's thread asks for a logger: one that asks
    // while it is still starting has its calls held and replayed, and SLF4J says so on stderr in three lines
    org.slf4j.LoggerFactory.getILoggerFactory();
  }

  /** Whether the command line asks for verbose logging: {@code -v} or {@code --verbose} before a {@code --}. */
  public static boolean verbose(String... args) {
    for (String arg : args) {
      if (arg.equals("--")) {
        return false;
      }
      if (arg.equals("-v") || arg.equals("--verbose")) {
        return true;
      }
    }
    return false;
  }

  private static final class OneLine extends Formatter {
    @Override
    public String format(LogRecord record) {
      String name = record.getLoggerName() == null ? "" : record.getLoggerName();
      String message = formatMessage(record);
      StringBuilder line = new StringBuilder("bottlenose: [").append(record.getLevel().getName().toLowerCase())
          .append(' ').append(name.substring(name.lastIndexOf('.') + 1)).append("] ").append(message);
      if (record.getThrown() != null) {
        line.append(": ").append(record.getThrown());
      }
      return line.append(System.lineSeparator()).toString();
    }
  }
}
