package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.wire.Jfr;
import dev.bottlenose.agent.discovery.DiscoverySettings;
import dev.bottlenose.agent.sources.WallClock;
import dev.bottlenose.daemon.attach.PerfCounters;
import dev.bottlenose.daemon.channel.Uids;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Reads the target's JFR disk repository in the daemon, where the agent's recording is written: counts this
 * daemon's watched sources, keeps the sampled call graph, and after every flush hands discovery's digest to
 * {@code digests} (for the agent). The target parses nothing. Starts with the events of the moment it is told
 * (the attach's). The sources' counts are complete through the time of the target's last flush
 * ({@code jdk.Flush}, taken once the reader has handled everything of that flush), not through the reader's own
 * clock: the reader sees a flush 0.4 to 1.4 s after the target wrote it. Every event time it uses is put on the
 * target's wall clock first ({@link JfrClock}).
 *
 * <p>The repository's path comes from the agent, so it is checked before anything is read ({@link #checked}),
 * and every second the reader checks that the directory holds only the target user's own {@code *.jfr}
 * files (JFR reads the directory's {@code *.jfr} entries and would follow a link): otherwise it stops.
 */
public final class RepositoryReader implements AutoCloseable {
  static final long CHECK_MILLIS = 1000;
  private final Path repository;
  private final int ownerUid;
  private final SourceCounter sources;
  private final CallGraphs graphs = new CallGraphs();
  private final LongRunningFrames longRunning;
  private final DiscoveryEvents discovery;
  private final Consumer<Jfr> digests;
  private final JfrClock clock = new JfrClock();
  private final ScheduledExecutorService decay = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bottlenose-callgraph-decay");
    t.setDaemon(true);
    return t;
  });
  private volatile String failure = "";
  /** Events JFR recorded only because a source of this daemon's watched their type; the reading thread writes it. */
  private volatile long sourceEvents;
  /** Of {@link #sourceEvents}, those recorded without a stack trace; the reading thread writes it. */
  private volatile long stacklessSourceEvents;
  private volatile long lastFlushMillis;
  private long settledThroughMillis;
  private EventStream stream;
  private volatile Runnable onSettled = () -> {};

  /**
   * Reads {@code repository}, the one process {@code pid} records to (its threads' CPU times weight the samples;
   * its user must own the repository and every file in it).
   */
  public RepositoryReader(Path repository, long pid, long samplePeriodNanos, Consumer<Jfr> digests) {
    this(repository, pid, Uids.ofProcess(pid), samplePeriodNanos, digests);
  }

  /** As {@link #RepositoryReader(Path, long, long, Consumer)}, with the uid of process {@code pid} already known. */
  public RepositoryReader(Path repository, long pid, int ownerUid, long samplePeriodNanos,
      Consumer<Jfr> digests) {
    this.repository = repository;
    this.ownerUid = ownerUid;
    ThreadCpuTimes cpu = new ThreadCpuTimes(pid);
    this.longRunning = new LongRunningFrames(cpu);
    this.sources = new SourceCounter(samplePeriodNanos, cpu, cpu::live, clock);
    this.discovery = new DiscoveryEvents(graphs, longRunning, cpu, sources::isToolsCompilation, clock);
    PerfCounters counters = PerfCounters.of(pid);
    if (counters != null) {
      sources.classLoadingTime(counters::classLoadingNanos);
    }
    this.digests = digests;
  }

  /**
   * The repository {@code named} by an agent, if the daemon may read it: an absolute, normal path of an existing
   * directory (not a symbolic link) that {@code ownerUid} owns, that no group or other may write, holding only
   * that user's regular {@code *.jfr} files; otherwise an {@link IOException} that says what is wrong.
   */
  public static Path checked(String named, int ownerUid) throws IOException {
    Path path;
    try {
      path = Path.of(named);
    } catch (InvalidPathException e) {
      throw new IOException("'" + named + "' is not a path");
    }
    if (!path.isAbsolute() || !path.normalize().equals(path)) {
      throw new IOException("'" + named + "' is not an absolute, normal path");
    }
    PosixFileAttributes a;
    try {
      a = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw new IOException(path + " does not exist");
    }
    if (a.isSymbolicLink()) {
      throw new IOException(path + " is a symbolic link");
    }
    if (!a.isDirectory()) {
      throw new IOException(path + " is not a directory");
    }
    int owner = Uids.owner(path);
    if (owner != ownerUid) {
      throw new IOException(path + " belongs to uid " + owner + ", not to the target's uid " + ownerUid);
    }
    if (a.permissions().contains(PosixFilePermission.GROUP_WRITE) || a.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new IOException(path + " may be written by other users");
    }
    checkFiles(path, ownerUid);
    return path;
  }

  /** Every {@code *.jfr} entry of {@code directory} is a regular file (not a link) of {@code ownerUid}. */
  static void checkFiles(Path directory, int ownerUid) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.jfr")) {
      for (Path f : files) {
        PosixFileAttributes a = Files.readAttributes(f, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink() || !a.isRegularFile()) {
          throw new IOException(f + " is " + (a.isSymbolicLink() ? "a symbolic link" : "not a regular file"));
        }
        int owner = Uids.owner(f);
        if (owner != ownerUid) {
          throw new IOException(f + " belongs to uid " + owner + ", not to the target's uid " + ownerUid);
        }
      }
    } catch (NoSuchFileException e) {
      // a chunk JFR removed while it was listed
    }
  }

  /**
   * How far before its start instant the stream is opened; the events of that margin that ended before the instant on
   * the wall clock are dropped once a wall-clock event has told JFR's offset, and read before that.
   */
  static final long START_MARGIN_MILLIS = 10_000;
  private volatile long fromMillis = Long.MIN_VALUE;

  /** As {@link #start(Instant)} from now. */
  public synchronized void start() throws IOException {
    start(Instant.now());
  }

  /**
   * Opens the repository and reads it on a thread of its own, the events from {@code from} on (the moment the
   * daemon began bringing the agent in: none of its recording is missed, and no other recording's past is read); a
   * repository that cannot be opened throws.
   */
  public synchronized void start(Instant from) throws IOException {
    checked(repository.toString(), ownerUid);
    EventStream s = EventStream.openRepository(repository);
    s.setReuse(true);
    s.setOrdered(false);
    // JFR's times can run behind the wall clock by a few ms for each second of the chunk's age (JfrClock): opened
    // at the wall-clock instant itself, a session joining a chunk minutes old would miss its first second or so
    fromMillis = from.toEpochMilli();
    s.setStartTime(from.minusMillis(START_MARGIN_MILLIS));
    Set<String> names = new TreeSet<>(discovery.eventNames());
    names.addAll(SourceCounter.eventNames());
    names.add(DiscoverySettings.FLUSH);
    names.add(WallClock.EVENT);
    for (String name : names) {
      s.onEvent(name, this::accept);
    }
    s.onFlush(this::flushed);
    s.onError(t -> failure = "reading " + repository + ": " + t);
    s.onClose(() -> failure = failure.isEmpty() ? "closed" : failure);
    stream = s;
    // a thread of its own name, not JFR's "JFR Event Stream": what reading costs shows as the tool's (top -H, /proc)
    Thread reader = new Thread(() -> {
      try {
        s.start();
      } catch (RuntimeException e) {
        failure = "reading " + repository + ": " + e;
      }
    }, "bottlenose-jfr-reader");
    reader.setDaemon(true);
    reader.start();
    decay.scheduleWithFixedDelay(graphs::decay, CallGraph.HALF_LIFE_MILLIS, CallGraph.HALF_LIFE_MILLIS, TimeUnit.MILLISECONDS);
    decay.scheduleWithFixedDelay(this::recheck, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Stops reading when the directory holds a file that is not the target user's own. */
  private void recheck() {
    try {
      checkFiles(repository, ownerUid);
    } catch (IOException | RuntimeException e) {
      failure = "refused to read on: " + e.getMessage();
      EventStream s;
      synchronized (this) {
        s = stream;
        stream = null;
      }
      if (s != null) {
        s.close();
      }
    }
  }

  private void accept(RecordedEvent e) {
    String name = e.getEventType().getName();
    if (DiscoverySettings.FLUSH.equals(name)) {
      lastFlushMillis = Math.max(lastFlushMillis, clock.millis(e.getEndTime()));
      return;
    }
    if (WallClock.EVENT.equals(name)) {
      clock.observe(e);
      return;
    }
    if (clock.known() && clock.millis(e.getEndTime()) < fromMillis) {
      return;
    }
    discovery.accept(e);
    sources.accept(e);
    if (sources.watches(name) && !discovery.recordedAnyway(e)) {
      sourceEvents++;
      if (e.getStackTrace() == null) {
        stacklessSourceEvents++;
      }
    }
  }

  /**
   * How many events JFR has recorded so far only because this daemon's sources watched their type: each cost
   * the program's thread that committed it a stack walk, which no thread of the tool's shows.
   */
  public long sourceEvents() {
    return sourceEvents;
  }

  /**
   * Of {@link #sourceEvents}, those JFR recorded without a stack trace: no stack was walked for them, which costs the
   * committing thread about an eighth of a walk of 60 frames.
   */
  public long stacklessSourceEvents() {
    return stacklessSourceEvents;
  }

  /**
   * After a flush's events have all been handled: the counts are complete through that flush. The stream calls
   * this more than once per flush; the sources take each flush once.
   */
  private void flushed() {
    graphs.flushed();
    sources.flushedStream();
    discovery.flushedStream();
    long through = lastFlushMillis;
    longRunning.flushed(through);
    if (through > settledThroughMillis) {
      settledThroughMillis = through;
      sources.flushed(through);
      onSettled.run();
    }
    Jfr digest = discovery.drain();
    if (digest != null) {
      digests.accept(digest);
    }
  }

  /** Called on the reading thread each time the sources' counts become complete through a new flush. */
  public void onSettled(Runnable listener) {
    onSettled = listener;
  }

  public SourceCounter sources() {
    return sources;
  }

  /** The methods each thread of the target has been running for a while, from its execution samples. */
  public LongRunningFrames longRunning() {
    return longRunning;
  }

  /** The graphs of the target's code discovery keeps: execution samples, slow I/O, contention, compilations. */
  public CallGraphs graphs() {
    return graphs;
  }

  /** Where it reads, handler failures and why it stopped (empty while it reads). */
  public Map<String, Object> status() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("repository", repository.toString());
    m.put("handlerFailures", sources.failures() + discovery.failures());
    m.put("agentThreadEvents", discovery.agentThreadEvents());
    m.put("contentionThresholdNanos", discovery.contentionThresholds());
    if (clock.offsetMillis() != null) {
      m.put("clockOffsetMillis", clock.offsetMillis());
    }
    String last = !sources.lastFailure().isEmpty() ? sources.lastFailure() : discovery.lastFailure();
    if (!last.isEmpty()) {
      m.put("lastHandlerFailure", last);
    }
    if (!failure.isEmpty()) {
      m.put("stopped", failure);
    }
    return m;
  }

  @Override
  public synchronized void close() {
    longRunning.stop();
    decay.shutdownNow();
    if (stream != null) {
      stream.close();
      stream = null;
    }
  }
}
