package dev.bottlenose.daemon.cli;

import java.io.PrintStream;

/** Where a command writes: results to {@code out}, warnings and errors to {@code err}. */
record Console(PrintStream out, PrintStream err) {}
