package dev.bottlenose.web.render;

import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.model.json.Json;
import dev.bottlenose.consultant.SearchStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;

/**
 * The formats a saved search is exported in, for the REST API and the {@code export} command alike: its
 * search-history graph ({@code json}: the whole saved search, {@code dot}, {@code svg}), the stacks it sampled
 * ({@code collapsed}, {@code speedscope}, {@code pprof}: {@link StackExports}) or the JFR recording it kept of a JVM
 * ({@code jfr}: the file beside the saved search, for JDK Mission Control and {@code jfr print}).
 */
public enum SearchExport {
  JSON("application/json; charset=utf-8", "json"),
  DOT("text/vnd.graphviz; charset=utf-8", "dot"),
  SVG("image/svg+xml; charset=utf-8", "svg"),
  COLLAPSED("text/plain; charset=utf-8", "collapsed.txt"),
  SPEEDSCOPE("application/json; charset=utf-8", "speedscope.json"),
  PPROF("application/octet-stream", "pb.gz"),
  JFR("application/octet-stream", "jfr");

  private final String contentType;
  private final String extension;

  SearchExport(String contentType, String extension) {
    this.contentType = contentType;
    this.extension = extension;
  }

  /** An export: its bytes, their content type and a file name for them (the search, JVM and graph). */
  public record Output(byte[] body, String contentType, String fileName) {}

  /** The format's name, as a query parameter or option gives it: {@code json}, …, {@code pprof}. */
  public String formatName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The content type of the format's answer. */
  public String contentType() {
    return contentType;
  }

  /** Whether it is bytes rather than text (pprof, jfr). */
  public boolean binary() {
    return this == PPROF || this == JFR;
  }

  /** Every format's name, in the order of this enum. */
  public static List<String> names() {
    return Arrays.stream(values()).map(SearchExport::formatName).toList();
  }

  /** The format {@code name} names; an unknown one is an IllegalArgumentException listing the known ones. */
  public static SearchExport named(String name) {
    for (SearchExport f : values()) {
      if (f.formatName().equals(name)) {
        return f;
      }
    }
    List<String> names = names();
    throw new IllegalArgumentException("unknown export format '" + name + "': expected "
        + String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1));
  }

  /**
   * {@code search} in this format. The stack formats take the stacks of {@code daemon} (null: the first JVM the
   * search kept stacks of), collapsed and pprof those of {@code graph} (one of {@link StackExports#GRAPHS}; an
   * IllegalArgumentException otherwise), speedscope every graph kept; a NoSuchElementException says which stacks
   * the search did not keep.
   */
  public Output write(SavedSearch search, String daemon, String graph) {
    return write(search, daemon, graph, null);
  }

  /**
   * As {@link #write(SavedSearch, String, String)}; {@code jfr} reads the recording the search kept of {@code daemon}
   * (null: the first JVM it kept one of) from {@code store}, the saved search's data directory. A search that kept none of that
   * JVM (an older search, one that ran with {@code search.keep_recording=0}, one still running, a dump that failed)
   * or whose file is gone is a NoSuchElementException saying why; a file that cannot be read an UncheckedIOException.
   */
  public Output write(SavedSearch search, String daemon, String graph, SearchStore store) {
    return write(search, daemon, graph, store, ShgView.Options.DEFAULT);
  }

  /**
   * As {@link #write(SavedSearch, String, String, SearchStore)}; {@code svg} draws the view of {@code view} (the
   * filter, collapsed nodes and opened groups {@code GET /api/searches/{id}/view} takes), the other formats ignore it.
   */
  public Output write(SavedSearch search, String daemon, String graph, SearchStore store, ShgView.Options view) {
    return switch (this) {
      case JFR -> recording(search, daemon, store);
      case JSON -> text(Json.write(search.toJson()), search.id());
      case DOT -> text(search.graph().toDot(search.hypotheses()), search.id());
      case SVG -> text(SvgWriter.write(search, view), search.id());
      case SPEEDSCOPE -> {
        String d = StackExports.daemonOrFirst(search, daemon);
        if (StackExports.ofDaemon(search, d).isEmpty()) {
          throw new NoSuchElementException("search '" + search.id() + "' kept no stacks"
              + (d == null ? "" : " of " + d));
        }
        yield text(StackExports.speedscope(search, d), search.id() + "-" + d);
      }
      case COLLAPSED, PPROF -> {
        if (!StackExports.GRAPHS.contains(graph)) {
          throw new IllegalArgumentException("graph must be one of " + String.join(", ", StackExports.GRAPHS) + ", is '"
              + graph + "'");
        }
        String d = StackExports.daemonOrFirst(search, daemon);
        SavedSearch.Stacks stacks = StackExports.find(search, d, graph).orElseThrow(() -> new NoSuchElementException(
            "search '" + search.id() + "' kept no " + graph + " stacks" + (d == null ? "" : " of " + d)));
        String name = search.id() + "-" + d + "-" + graph;
        yield this == PPROF ? new Output(StackExports.pprof(search, stacks), contentType, fileName(name))
            : text(StackExports.collapsed(stacks), name);
      }
    };
  }

  private Output recording(SavedSearch search, String daemon, SearchStore store) {
    Path file = recordingFile(search, daemon, store);
    try {
      return new Output(Files.readAllBytes(file), contentType, fileName(search.id() + "-" + recordingDaemon(search, daemon)));
    } catch (NoSuchFileException e) {
      throw gone(search, file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the JFR recording " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The file of the JFR recording {@code search} kept of {@code daemon} (null: the first JVM it kept one of), in
   * {@code store}, the saved search's data directory, for a caller that sends it as it is (the REST API streams it);
   * the same NoSuchElementExceptions as {@link #write(SavedSearch, String, String, SearchStore)} when there is none.
   */
  public static Path recordingFile(SavedSearch search, String daemon, SearchStore store) {
    SavedSearch.Recording r = recordingOf(search, daemon);
    if (store == null) {
      throw new NoSuchElementException("the JFR recording of search '" + search.id() + "' is a file beside it in its"
          + " data directory, which is not known here");
    }
    Path file = store.recordingFile(r.file());
    if (!Files.isRegularFile(file)) {
      throw gone(search, file);
    }
    return file;
  }

  /** The name of a JFR export's file: the search's id, the JVM's daemon id and {@code .jfr}. */
  public static String recordingFileName(SavedSearch search, String daemon) {
    return JFR.fileName(search.id() + "-" + recordingDaemon(search, daemon));
  }

  private static String recordingDaemon(SavedSearch search, String daemon) {
    return recordingOf(search, daemon).daemon();
  }

  private static SavedSearch.Recording recordingOf(SavedSearch search, String daemon) {
    List<SavedSearch.Recording> all = search.recordings();
    if (all.isEmpty()) {
      throw new NoSuchElementException("search '" + search.id() + "' kept no JFR recording: a search keeps its JVMs'"
          + " recordings as it ends (unless search.keep_recording is 0); one still running, or saved before searches"
          + " kept them, has none");
    }
    SavedSearch.Recording r = daemon == null
        ? all.stream().filter(x -> x.file() != null).findFirst().orElse(all.get(0)) : all.stream().filter(x -> x.daemon().equals(daemon))
        .findFirst().orElseThrow(() -> new NoSuchElementException("search '" + search.id() + "' kept no JFR recording"
            + " of " + daemon + " (it kept: " + String.join(", ", all.stream().map(SavedSearch.Recording::daemon)
            .toList()) + ")"));
    if (r.file() == null) {
      throw new NoSuchElementException("search '" + search.id() + "' kept no JFR recording of " + r.daemon() + ": "
          + r.error());
    }
    return r;
  }

  private static NoSuchElementException gone(SavedSearch search, Path file) {
    return new NoSuchElementException("the JFR recording of search '" + search.id() + "' (" + file + ") is not there"
        + " any more");
  }

  private Output text(String text, String name) {
    return new Output(text.getBytes(StandardCharsets.UTF_8), contentType, fileName(name));
  }

  /** {@code name} and the format's extension, characters other than letters, digits, '.', '_' and '-' as '_'. */
  private String fileName(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_") + "." + extension;
  }
}
