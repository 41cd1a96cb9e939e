package dev.bottlenose.consultant;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A finished (or interrupted) search as kept on disk: settings, graph, values over time, its JVMs' sampled
 * stacks as the search ended (for flame graphs; none when the daemons could not be asked) and, when it found lock
 * contention, who held the contended locks then and doing what; and each JVM's JFR recording as the search ended
 * ({@link Recording}: a file beside the saved search, or why there is none). Its JSON form carries its findings too,
 * for whoever reads the file; they are made again from the graph when it is read back.
 */
public record SavedSearch(
    String id, long startedAtMillis, long endedAtMillis, String endReason, Map<String, String> settings,
    SearchHistoryGraph graph, List<ValueSeries> series, List<Stacks> stacks, List<LockHolder> holders,
    List<Recording> recordings) {

  public SavedSearch {
    settings = Map.copyOf(settings);
    series = List.copyOf(series);
    stacks = List.copyOf(stacks);
    holders = List.copyOf(holders);
    recordings = List.copyOf(recordings);
  }

  /** A search without sampled stacks, lock holders or recordings. */
  public SavedSearch(String id, long startedAtMillis, long endedAtMillis, String endReason, Map<String, String> settings,
      SearchHistoryGraph graph, List<ValueSeries> series) {
    this(id, startedAtMillis, endedAtMillis, endReason, settings, graph, series, List.of(), List.of(), List.of());
  }

  /** This search with {@code stacks} as its sampled stacks. */
  public SavedSearch withStacks(List<Stacks> stacks) {
    return new SavedSearch(id, startedAtMillis, endedAtMillis, endReason, settings, graph, series, stacks, holders,
        recordings);
  }

  /** This search with {@code holders} as the lock holders seen as it ended. */
  public SavedSearch withHolders(List<LockHolder> holders) {
    return new SavedSearch(id, startedAtMillis, endedAtMillis, endReason, settings, graph, series, stacks, holders,
        recordings);
  }

  /** This search with {@code recordings} as its JVMs' JFR recordings. */
  public SavedSearch withRecordings(List<Recording> recordings) {
    return new SavedSearch(id, startedAtMillis, endedAtMillis, endReason, settings, graph, series, stacks, holders,
        recordings);
  }

  /**
   * One JVM's JFR recording as the search ended (what the JVM recorded in the last two minutes of the search at
   * most): {@code file}, the name of a JFR file in the data directory beside the saved search, of {@code bytes}
   * bytes, covering {@code fromMillis} (the later of the recording's start and two minutes before the dump) to
   * {@code toMillis}; or, when there is none, {@code file} null and {@code error} saying why.
   */
  public record Recording(String daemon, String file, long bytes, long fromMillis, long toMillis, String error) {
    /** A recording kept in {@code file}. */
    public static Recording kept(String daemon, String file, long bytes, long fromMillis, long toMillis) {
      return new Recording(daemon, file, bytes, fromMillis, toMillis, null);
    }

    /** No recording of {@code daemon}, for this reason. */
    public static Recording missing(String daemon, String error) {
      return new Recording(daemon, null, 0, 0, 0, error);
    }

    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("daemon", daemon);
      if (file != null) {
        m.put("file", file);
        m.put("bytes", bytes);
        m.put("fromMillis", fromMillis);
        m.put("toMillis", toMillis);
      }
      if (error != null) {
        m.put("error", error);
      }
      return m;
    }

    static Recording fromJson(Map<?, ?> m) {
      return new Recording((String) m.get("daemon"), (String) m.get("file"),
          m.get("bytes") == null ? 0 : ((Number) m.get("bytes")).longValue(),
          m.get("fromMillis") == null ? 0 : ((Number) m.get("fromMillis")).longValue(),
          m.get("toMillis") == null ? 0 : ((Number) m.get("toMillis")).longValue(), (String) m.get("error"));
    }
  }

  /**
   * A lock one JVM's threads waited for, seen held by thread {@code owner} in state {@code ownerState} with this
   * stack (top frame first, {@code /Code} paths without descriptors) in {@code seen} of {@code looks} looks taken as
   * the search ended, while {@code waiters} (of pools {@code waiterPools}) waited for it. {@code lock} is
   * {@code monitor <class>} for a monitor,
   * {@code lock <class>} for a {@code java.util.concurrent} lock.
   */
  public record LockHolder(String daemon, String lock, String owner, String ownerState, List<String> ownerStack,
      int seen, int looks, List<String> waiters, List<String> waiterPools) {
    public LockHolder {
      ownerStack = List.copyOf(ownerStack);
      waiters = List.copyOf(waiters);
      waiterPools = List.copyOf(waiterPools);
    }

    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("daemon", daemon);
      m.put("lock", lock);
      m.put("owner", owner);
      m.put("ownerState", ownerState);
      m.put("ownerStack", ownerStack);
      m.put("seen", seen);
      m.put("looks", looks);
      m.put("waiters", waiters);
      m.put("waiterPools", waiterPools);
      return m;
    }

    static LockHolder fromJson(Map<?, ?> m) {
      return new LockHolder((String) m.get("daemon"), (String) m.get("lock"), (String) m.get("owner"),
          (String) m.get("ownerState"), texts(m.get("ownerStack")), ((Number) m.get("seen")).intValue(),
          ((Number) m.get("looks")).intValue(), texts(m.get("waiters")),
          m.get("waiterPools") == null ? List.of() : texts(m.get("waiterPools")));
    }

    private static List<String> texts(Object list) {
      return ((List<?>) list).stream().map(o -> (String) o).toList();
    }
  }

  /**
   * One JVM's sampled stacks of one kind ({@code cpu}, {@code sync}, {@code io}: the daemon's graphs) merged into a
   * tree from the outermost frame, its nodes with the most samples, the root first and each node after its parent.
   */
  public record Stacks(String daemon, String graph, long samples, List<Frame> frames) {
    public Stacks {
      frames = List.copyOf(frames);
    }

    /** A node: its parent's index (-1 for the root), its method's {@code /Code} path, samples through it and ending in it. */
    public record Frame(int parent, String method, long total, long self) {}

    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("daemon", daemon);
      m.put("graph", graph);
      m.put("samples", samples);
      m.put("frames", frames.stream().map(f -> List.<Object>of(f.parent(), f.method(), f.total(), f.self())).toList());
      return m;
    }

    static Stacks fromJson(Map<?, ?> m) {
      List<Frame> frames = ((List<?>) m.get("frames")).stream().map(o -> {
        List<?> f = (List<?>) o;
        return new Frame(((Number) f.get(0)).intValue(), (String) f.get(1), ((Number) f.get(2)).longValue(), ((Number) f.get(3)).longValue());
      }).toList();
      return new Stacks((String) m.get("daemon"), (String) m.get("graph"), ((Number) m.get("samples")).longValue(), frames);
    }
  }

  /**
   * The hypotheses it searched with: the built-ins with its settings' thresholds and declarations; the built-ins
   * as they are now if its settings no longer make a catalog (a setting since removed).
   */
  public HypothesisCatalog hypotheses() {
    try {
      return HypothesisCatalog.of(Settings.defaults().with(settings, "saved search " + id));
    } catch (IllegalArgumentException e) {
      return HypothesisCatalog.of(Settings.defaults());
    }
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", "bottlenose-search/1");
    m.put("id", id);
    m.put("startedAtMillis", startedAtMillis);
    m.put("endedAtMillis", endedAtMillis);
    m.put("endReason", endReason);
    m.put("settings", new java.util.TreeMap<>(settings));
    m.put("findings", Findings.of(this).stream().map(Findings.Finding::toJson).toList());
    m.put("graph", graph.toJson());
    m.put("series", series.stream().map(ValueSeries::toJson).toList());
    m.put("stacks", stacks.stream().map(Stacks::toJson).toList());
    m.put("holders", holders.stream().map(LockHolder::toJson).toList());
    m.put("recordings", recordings.stream().map(Recording::toJson).toList());
    return m;
  }

  /** Reads {@link #toJson} back; throws IllegalArgumentException naming what is wrong. */
  public static SavedSearch fromJson(Object json) {
    if (!(json instanceof Map<?, ?> m) || !"bottlenose-search/1".equals(m.get("format"))) {
      throw new IllegalArgumentException("not a saved Bottlenose search (format bottlenose-search/1)");
    }
    try {
      Map<String, String> settings = new LinkedHashMap<>();
      ((Map<?, ?>) m.get("settings")).forEach((k, v) -> settings.put((String) k, (String) v));
      return new SavedSearch(
          (String) m.get("id"),
          ((Number) m.get("startedAtMillis")).longValue(),
          ((Number) m.get("endedAtMillis")).longValue(),
          (String) m.get("endReason"),
          settings,
          SearchHistoryGraph.fromJson(m.get("graph")),
          ((List<?>) m.get("series")).stream().map(s -> ValueSeries.fromJson((Map<?, ?>) s)).toList(),
          m.get("stacks") == null ? List.of() : ((List<?>) m.get("stacks")).stream().map(s -> Stacks.fromJson((Map<?, ?>) s)).toList(),
          m.get("holders") == null ? List.of() : ((List<?>) m.get("holders")).stream().map(h -> LockHolder.fromJson((Map<?, ?>) h)).toList(),
          m.get("recordings") == null ? List.of() : ((List<?>) m.get("recordings")).stream().map(r -> Recording.fromJson((Map<?, ?>) r)).toList());
    } catch (ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException("saved search " + m.get("id") + " is malformed: " + e.getMessage(), e);
    }
  }
}
