package dev.bottlenose.web.cli;

import dev.bottlenose.cli.ExitCodes;
import dev.bottlenose.cli.UsageException;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.model.json.Json;
import dev.bottlenose.web.render.SearchExport;
import dev.bottlenose.web.render.StackExports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code export}: a saved search in one of {@link SearchExport}'s formats, on stdout or in {@code --out FILE}
 * (pprof, which is binary, only in a file); the same bytes as {@code GET /api/searches/{id}/export}.
 */
@Command(name = "export", description = {
    "write a saved search's graph (json, dot, svg), the stacks it sampled (collapsed, speedscope, pprof) or the JFR"
        + " recording it kept (jfr)",
    "SEARCH is a search's id (its file <id>.json in --data) or the path of a saved search's JSON file; collapsed and"
        + " pprof take the stacks of one --graph, speedscope all of them; jfr is what the JVM recorded in the search's"
        + " last two minutes at most, for JDK Mission Control and jfr print; --daemon picks the JVM (default: the first"
        + " the search kept stacks or a recording of)"})
final class ExportCommand implements Callable<Integer> {
  @ParentCommand
  Main main;

  @Parameters(index = "0", paramLabel = "SEARCH", description = "a saved search's id, or the path of its JSON file")
  String search;

  @Option(names = "--format", paramLabel = "FORMAT", required = true, completionCandidates = Formats.class,
      description = "json, dot, svg, collapsed, speedscope, pprof or jfr")
  String format;

  @Option(names = "--graph", paramLabel = "GRAPH", completionCandidates = Graphs.class,
      description = "the stacks for collapsed and pprof: cpu, wait (microseconds waited), sync, io or alloc (default: cpu)")
  String graph = "cpu";

  @Option(names = "--daemon", paramLabel = "ID", description = "the JVM whose stacks to export, by its daemon's id"
      + " (default: the first the search kept)")
  String daemon;

  @Option(names = "--out", paramLabel = "FILE", description = "write to FILE instead of stdout (the binary"
      + " formats, pprof and jfr, go to stdout only when it is not a terminal)")
  Path out;

  @Mixin
  DataOption data;

  @Override
  public Integer call() throws IOException {
    SearchExport f;
    try {
      f = SearchExport.named(format);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--format: " + e.getMessage());
    }
    if (!StackExports.GRAPHS.contains(graph)) {
      throw new UsageException("--graph must be one of " + String.join(", ", StackExports.GRAPHS) + ", is '" + graph + "'");
    }
    if (f.binary() && out == null && System.console() != null && main.out == System.out) {
      throw new UsageException("--format " + f.formatName() + " is binary: write it to a file with --out FILE, or"
          + " redirect stdout");
    }
    Opened opened = open();
    SavedSearch saved = opened.search();
    SearchExport.Output output;
    try {
      output = f.write(saved, daemon, graph, new SearchStore(opened.directory()));
    } catch (NoSuchElementException e) {
      throw new IllegalStateException(f == SearchExport.JFR ? e.getMessage()
          : e.getMessage() + ": they are kept when a search ends and its daemon answers", e);
    }
    if (out != null) {
      try {
        Files.write(out, output.body());
      } catch (NoSuchFileException e) {
        throw new IOException("cannot write " + out + ": no such directory", e);
      } catch (IOException e) {
        throw new IOException("cannot write " + out + ": " + e.getMessage(), e);
      }
      main.err.println("bottlenose: wrote " + out + " (" + output.body().length + " bytes)");
    } else {
      main.out.writeBytes(output.body());
      if (!f.binary() && output.body().length > 0 && output.body()[output.body().length - 1] != '\n') {
        main.out.println();
      }
      main.out.flush();
    }
    return ExitCodes.OK;
  }

  /** A saved search and the directory it is in (where its recordings are). */
  private record Opened(SavedSearch search, Path directory) {}

  /** The saved search SEARCH names: a JSON file, else an id in {@code --data}. */
  private Opened open() throws IOException {
    Path file = Path.of(search);
    if (Files.isRegularFile(file)) {
      try {
        Path dir = file.toAbsolutePath().getParent();
        return new Opened(SavedSearch.fromJson(Json.parse(Files.readString(file, StandardCharsets.UTF_8))), dir);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
      }
    }
    Path directory = data.directory();
    boolean saved = search.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
        && Files.isRegularFile(directory.resolve(search + ".json"));
    if (!saved) {
      throw new UsageException("no saved search '" + search + "': neither a file nor a search id in " + directory
          + " (--data DIR)");
    }
    return new Opened(new SearchStore(directory).open(search), directory);
  }

  /** The values of {@code --format}, for shell completion. */
  static final class Formats implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return SearchExport.names().iterator();
    }
  }

  /** The values of {@code --graph}, for shell completion. */
  static final class Graphs implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return StackExports.GRAPHS.iterator();
    }
  }
}
