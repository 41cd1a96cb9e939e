package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.discovery.CallGraph;
import dev.bottlenose.agent.discovery.CallGraphs;
import dev.bottlenose.agent.discovery.DiscoveryEvents;
import dev.bottlenose.agent.sources.SourceCounter;
import java.io.IOException;
import java.nio.file.Path;
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
 * {@code digests} (for the agent). The target parses nothing. Starts with the events of the moment it opens.
 * The sources' counts are complete through the time of the target's last flush ({@code jdk.Flush}, taken
 * once the reader has handled everything of that flush), not through the reader's own clock: the reader
 * sees a flush 0.4 to 1.4 s after the target wrote it.
 */
public final class RepositoryReader implements AutoCloseable {
  private final Path repository;
  private final SourceCounter sources;
  private final CallGraphs graphs = new CallGraphs();
  private final DiscoveryEvents discovery = new DiscoveryEvents(graphs);
  private final Consumer<Map<String, Object>> digests;
  private final ScheduledExecutorService decay = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bottlenose-callgraph-decay");
    t.setDaemon(true);
    return t;
  });
  private volatile String failure = "";
  /** Events JFR recorded only because a source of this daemon's watched their type; the reading thread writes it. */
  private volatile long sourceEvents;
  private volatile long lastFlushMillis;
  private long settledThroughMillis;
  private EventStream stream;

  /** Reads {@code repository}, the one process {@code pid} records to (its threads' CPU times weight the samples). */
  public RepositoryReader(Path repository, long pid, long samplePeriodNanos, Consumer<Map<String, Object>> digests) {
    this.repository = repository;
    ThreadCpuTimes cpu = new ThreadCpuTimes(pid);
    this.sources = new SourceCounter(samplePeriodNanos, cpu, cpu::live);
    this.digests = digests;
  }

  /** Opens the repository and reads it on a thread of its own; a repository that cannot be opened throws. */
  public synchronized void start() throws IOException {
    EventStream s = EventStream.openRepository(repository);
    s.setReuse(true);
    s.setOrdered(false);
    s.setStartTime(Instant.now());
    Set<String> names = new TreeSet<>(discovery.eventNames());
    names.addAll(SourceCounter.eventNames());
    names.add(DiscoveryEvents.FLUSH);
    for (String name : names) {
      s.onEvent(name, this::accept);
    }
    s.onFlush(this::flushed);
    s.onError(t -> failure = "reading " + repository + ": " + t);
    s.onClose(() -> failure = failure.isEmpty() ? "closed" : failure);
    stream = s;
    s.startAsync();
    decay.scheduleWithFixedDelay(graphs::decay, CallGraph.HALF_LIFE_MILLIS, CallGraph.HALF_LIFE_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void accept(RecordedEvent e) {
    if (DiscoveryEvents.FLUSH.equals(e.getEventType().getName())) {
      lastFlushMillis = Math.max(lastFlushMillis, e.getEndTime().toEpochMilli());
      return;
    }
    discovery.accept(e);
    sources.accept(e);
    if (sources.watches(e.getEventType().getName()) && !DiscoveryEvents.recordedAnyway(e)) {
      sourceEvents++;
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
   * After a flush's events have all been handled: the counts are complete through that flush. The stream calls
   * this more than once per flush; the sources take each flush once.
   */
  private void flushed() {
    long through = lastFlushMillis;
    if (through > settledThroughMillis) {
      settledThroughMillis = through;
      sources.flushed(through);
    }
    Map<String, Object> digest = discovery.drain();
    if (digest != null) {
      digests.accept(digest);
    }
  }

  public SourceCounter sources() {
    return sources;
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
    decay.shutdownNow();
    if (stream != null) {
      stream.close();
      stream = null;
    }
  }
}
