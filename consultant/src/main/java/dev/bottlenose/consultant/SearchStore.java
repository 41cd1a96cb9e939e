package dev.bottlenose.consultant;

import dev.bottlenose.model.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Saved searches in a data directory, one {@code <id>.json} file each: save, list, reopen; beside it the JFR
 * recording of each of its JVMs as it ended, {@code <id>.<daemon>.jfr} ({@link #saveRecording}). A search still
 * running has a {@code <id>.journal} beside them ({@link SearchJournal}); a journal whose process died is
 * turned into a saved search that ends "interrupted" the next time the store is listed.
 */
public final class SearchStore {
  /** How the file of a saved recording ends. */
  public static final String RECORDING_SUFFIX = ".jfr";
  private final Path directory;

  public SearchStore(Path directory) {
    this.directory = directory;
  }

  /** What {@link #list} tells about one saved search without the values. */
  public record Summary(String id, long startedAtMillis, long endedAtMillis, String endReason, int nodes, int trueNodes) {}

  /** Writes the search atomically (a temporary file moved into place); returns the file. */
  public Path save(SavedSearch search) throws IOException {
    Files.createDirectories(directory);
    Path target = file(search.id());
    Path tmp = Files.createTempFile(directory, search.id() + ".", ".tmp");
    try {
      Files.writeString(tmp, Json.write(search.toJson()), StandardCharsets.UTF_8);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return target;
  }

  /**
   * Writes one JVM's JFR recording of search {@code searchId} beside it, atomically, readable by this user alone
   * (it holds the program's method and thread names); answers the file's name (not path): {@code <id>.<daemon>.jfr},
   * the daemon's id with characters other than letters, digits, '_' and '-' as '_'.
   */
  public String saveRecording(String searchId, String daemon, byte[] bytes) throws IOException {
    file(searchId);
    Files.createDirectories(directory);
    String name = searchId + "." + daemon.replaceAll("[^A-Za-z0-9_-]", "_") + RECORDING_SUFFIX;
    Path tmp = Files.createTempFile(directory, searchId + ".", ".tmp", java.nio.file.attribute.PosixFilePermissions
        .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    try {
      Files.write(tmp, bytes);
      Files.move(tmp, directory.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return name;
  }

  /**
   * The file of a recording a saved search names ({@link SavedSearch.Recording#file}), in this store's directory: a
   * plain {@code *.jfr} file name (no directory), else an IllegalArgumentException.
   */
  public Path recordingFile(String name) {
    if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,250}") || !name.endsWith(RECORDING_SUFFIX)
        || name.contains("..")) {
      throw new IllegalArgumentException("not a recording's file name: '" + name + "'");
    }
    return directory.resolve(name);
  }

  /** The saved search {@code id}; an unknown id or a damaged file is an error naming it. */
  public SavedSearch open(String id) throws IOException {
    Path f = file(id);
    try {
      return SavedSearch.fromJson(Json.parse(Files.readString(f, StandardCharsets.UTF_8)));
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("no saved search '" + id + "' in " + directory, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(f + ": " + e.getMessage(), e);
    }
  }

  /** Starts the journal of a search that has just begun: from now on it is kept as it runs. */
  public SearchJournal journal(Search search) throws IOException {
    return SearchJournal.start(directory, search);
  }

  /**
   * Saves each search whose journal no process writes any more (the process was killed, or the machine
   * stopped) as an interrupted search, and deletes its journal; answers the ids saved.
   */
  public List<String> recoverInterrupted() throws IOException {
    List<String> recovered = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return recovered;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory, "*" + SearchJournal.SUFFIX)) {
      for (Path journal : ds) {
        if (SearchJournal.isBeingWritten(journal)) {
          continue;
        }
        try {
          SavedSearch s = SearchJournal.recover(journal);
          if (!Files.exists(file(s.id()))) {
            save(s);
          }
          Files.deleteIfExists(journal);
          recovered.add(s.id());
        } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
          // not a journal this version can read: left as it is
        }
      }
    }
    return recovered;
  }

  /** The saved searches (interrupted ones recovered first), newest first; files that cannot be read are skipped. */
  public List<Summary> list() throws IOException {
    List<Summary> list = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return list;
    }
    recoverInterrupted();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory, "*.json")) {
      for (Path f : ds) {
        String name = f.getFileName().toString();
        try {
          SavedSearch s = open(name.substring(0, name.length() - ".json".length()));
          List<ShgNode> nodes = s.graph().nodes();
          int trueNodes = (int) nodes.stream().filter(n -> n.state() == NodeState.TRUE).count();
          list.add(new Summary(s.id(), s.startedAtMillis(), s.endedAtMillis(), s.endReason(), nodes.size(), trueNodes));
        } catch (IllegalArgumentException e) {
          // not a saved search: skipped
        }
      }
    }
    list.sort(Comparator.comparingLong(Summary::startedAtMillis).reversed());
    return list;
  }

  /** The file search {@code id} is saved in (or will be, as it ends); a malformed id is refused. */
  public Path file(String id) {
    if (id == null || !id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,99}")) {
      throw new IllegalArgumentException("not a search id: '" + id + "'");
    }
    return directory.resolve(id + ".json");
  }
}
