package dev.bottlenose.consultant;

import dev.bottlenose.model.json.Json;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A running search, appended to {@code <id>.journal} as it happens: a header with the settings, then one JSON
 * line per change of the graph and per value measured. The lines are flushed to the file once per step, so
 * a search whose process is killed loses at most its last sampling interval; {@link #recover} turns such a
 * journal into a saved search that ends "interrupted". The writer holds a lock on the file while it writes,
 * which is how a reader tells a journal still being written (by this or another process) from an orphan.
 */
public final class SearchJournal implements AutoCloseable {
  static final String SUFFIX = ".journal";
  static final String FORMAT = "bottlenose-journal/1";

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;
  private final BufferedWriter out;
  private final Map<MetricRequest, Integer> seriesIndex = new HashMap<>();
  private boolean failed;

  private SearchJournal(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
    this.out = new BufferedWriter(Channels.newWriter(channel, StandardCharsets.UTF_8), 1 << 16);
  }

  /** Starts the journal of {@code search} in {@code directory} and follows its graph and values from now on. */
  public static SearchJournal start(Path directory, Search search) throws IOException {
    Files.createDirectories(directory);
    Path file = directory.resolve(search.id() + SUFFIX);
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
    SearchJournal journal = new SearchJournal(file, channel, channel.lock());
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("format", FORMAT);
    header.put("id", search.id());
    header.put("startedAtMillis", search.startedAtMillis());
    header.put("settings", new java.util.TreeMap<>(search.settings().asMap()));
    journal.line(header);
    synchronized (search) {
      for (ShgNode n : search.graph().nodes()) {
        journal.line(Map.of("node", n.toJson()));
      }
      for (ShgEdge e : search.graph().edges()) {
        journal.line(Map.of("edge", e.toJson()));
      }
      search.addListener(journal::event);
      for (ValueSeries s : search.toSaved().series()) {
        journal.started(s.request());
        s.points().forEach(p -> journal.value(s.request(), p));
      }
      search.onValues(new ValueSeries.Listener() {
        @Override
        public void started(MetricRequest request) {
          journal.started(request);
        }

        @Override
        public void value(MetricRequest request, ValueSeries.Point point) {
          journal.value(request, point);
        }
      });
    }
    journal.flush();
    return journal;
  }

  public Path file() {
    return file;
  }

  private synchronized void event(ShgEvent e) {
    if (e instanceof ShgEvent.NodeAdded a) {
      line(Map.of("node", a.node().toJson()));
    } else if (e instanceof ShgEvent.NodeChanged c) {
      line(Map.of("node", c.node().toJson()));
    } else if (e instanceof ShgEvent.EdgeAdded a) {
      line(Map.of("edge", a.edge().toJson()));
    } else if (e instanceof ShgEvent.SearchEnded ended) {
      line(Map.of("ended", ended.reason(), "atMillis", System.currentTimeMillis()));
    }
  }

  private synchronized int started(MetricRequest request) {
    Integer index = seriesIndex.get(request);
    if (index == null) {
      index = seriesIndex.size();
      seriesIndex.put(request, index);
      line(Map.of("series", index, "request", request.toJson()));
    }
    return index;
  }

  private synchronized void value(MetricRequest request, ValueSeries.Point p) {
    int index = started(request);
    List<Object> point = new ArrayList<>(List.of(p.atMillis(), p.value(), Double.isNaN(p.cost()) ? -1.0 : p.cost()));
    if (p.fromMillis() >= 0) {
      point.add(p.fromMillis());
    }
    line(Map.of("v", index, "p", point));
  }

  /** Writes what was appended since the last flush to the file (once per step). */
  public synchronized void flush() {
    if (failed) {
      return;
    }
    try {
      out.flush();
    } catch (IOException e) {
      failed = true;
    }
  }

  private void line(Map<String, Object> record) {
    if (failed) {
      return;
    }
    try {
      out.write(Json.write(record));
      out.write('\n');
    } catch (IOException e) {
      failed = true;
    }
  }

  /** Stops writing and deletes the journal (the search was saved whole). */
  @Override
  public synchronized void close() {
    try {
      out.close();
    } catch (IOException e) {
      // the journal is deleted either way
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + file, e);
    }
  }

  /** Whether some process still writes the journal {@code file} (it holds the file's lock). */
  static boolean isBeingWritten(Path file) {
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
      FileLock l = c.tryLock();
      if (l == null) {
        return true;
      }
      l.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The search a journal nobody writes any more describes: its graph and values up to the last line that
   * reached the file, ending "interrupted" at that line's time unless the journal says how it ended. A
   * damaged last line (the process died writing it) is ignored; an unreadable header is an error.
   */
  static SavedSearch recover(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.isEmpty()) {
      throw new IllegalArgumentException(file + " is empty");
    }
    Map<?, ?> header = (Map<?, ?>) Json.parse(lines.get(0));
    if (!FORMAT.equals(header.get("format"))) {
      throw new IllegalArgumentException(file + " is not a Bottlenose search journal");
    }
    String id = (String) header.get("id");
    long started = ((Number) header.get("startedAtMillis")).longValue();
    Map<String, String> settings = new LinkedHashMap<>();
    ((Map<?, ?>) header.get("settings")).forEach((k, v) -> settings.put((String) k, (String) v));
    SearchHistoryGraph graph = new SearchHistoryGraph(id);
    Map<Integer, MetricRequest> requests = new HashMap<>();
    Map<MetricRequest, List<ValueSeries.Point>> points = new LinkedHashMap<>();
    long last = started;
    String ended = null;
    for (String text : lines.subList(1, lines.size())) {
      Map<?, ?> r;
      try {
        r = (Map<?, ?>) Json.parse(text);
      } catch (RuntimeException torn) {
        break;
      }
      if (r.get("node") instanceof Map<?, ?> n) {
        graph.restore(ShgNode.fromJson(n));
      } else if (r.get("edge") instanceof Map<?, ?> e) {
        graph.restore(ShgEdge.fromJson(e));
      } else if (r.get("series") instanceof Number i) {
        MetricRequest request = MetricRequest.fromJson(r.get("request"));
        requests.put(i.intValue(), request);
        points.put(request, new ArrayList<>());
      } else if (r.get("v") instanceof Number i && r.get("p") instanceof List<?> p && requests.containsKey(i.intValue())) {
        double cost = ((Number) p.get(2)).doubleValue();
        ValueSeries.Point point = new ValueSeries.Point(((Number) p.get(0)).longValue(), ((Number) p.get(1)).doubleValue(),
            cost < 0 ? Double.NaN : cost, p.size() > 3 ? ((Number) p.get(3)).longValue() : -1);
        points.get(requests.get(i.intValue())).add(point);
        last = Math.max(last, point.atMillis());
      } else if (r.get("ended") instanceof String reason) {
        ended = reason;
        last = Math.max(last, ((Number) r.get("atMillis")).longValue());
      }
    }
    List<ValueSeries> series = new ArrayList<>();
    points.forEach((request, p) -> series.add(new ValueSeries(request, p)));
    String reason = ended != null ? ended : "interrupted: the process running the search ended before the search did"
        + " (the data up to its last interval is kept)";
    return new SavedSearch(id, started, last, reason, settings, graph, series);
  }
}
