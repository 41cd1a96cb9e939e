package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.AgentStatus;
import dev.bottlenose.agent.wire.Changes;
import dev.bottlenose.agent.wire.ClassBytes;
import dev.bottlenose.agent.wire.ClassDigest;
import dev.bottlenose.agent.wire.Dump;
import dev.bottlenose.agent.wire.DumpReply;
import dev.bottlenose.agent.wire.Hello;
import dev.bottlenose.agent.wire.Holders;
import dev.bottlenose.agent.wire.HoldersReply;
import dev.bottlenose.agent.wire.Jfr;
import dev.bottlenose.agent.wire.Ledger;
import dev.bottlenose.agent.wire.LedgerReply;
import dev.bottlenose.agent.wire.ProbeEntry;
import dev.bottlenose.agent.wire.Read;
import dev.bottlenose.agent.wire.ReadReply;
import dev.bottlenose.agent.wire.Resources;
import dev.bottlenose.agent.wire.SourceEntry;
import dev.bottlenose.agent.wire.SourceSpec;
import dev.bottlenose.agent.wire.Status;
import dev.bottlenose.agent.wire.Unwatch;
import dev.bottlenose.agent.wire.Watch;
import dev.bottlenose.agent.wire.Watched;
import dev.bottlenose.agent.wire.WireException;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.bus.OwnCpu;
import dev.bottlenose.daemon.attach.CompiledBeforeAttach;
import dev.bottlenose.daemon.attach.TargetPaths;
import dev.bottlenose.daemon.attach.ToolCompilation;
import dev.bottlenose.daemon.channel.AgentChannel;
import dev.bottlenose.daemon.channel.AgentException;
import dev.bottlenose.daemon.channel.ChannelException;
import dev.bottlenose.daemon.channel.Uids;
import dev.bottlenose.daemon.jfr.CallGraphs;
import dev.bottlenose.daemon.jfr.LongRunningFrames;
import dev.bottlenose.daemon.jfr.RecordingDump;
import dev.bottlenose.daemon.jfr.RepositoryReader;
import dev.bottlenose.daemon.jfr.VmThreadsCpu;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.time.Instant;

/**
 * The daemon's view of one target JVM: its resource hierarchies, the probes this session inserted,
 * and a stream of sampled values. When the target exits the session says so and keeps what it has.
 */
public final class TargetSession implements AutoCloseable, PlanTarget {
  /** Where the session stands. */
  public enum State {
    RUNNING,
    TARGET_EXITED,
    DISCONNECTED,
    CLOSED
  }

  /** How the agent came to this session's target. */
  public enum Route {
    /** Loaded at run time through the Attach API. */
    ATTACHED,
    /** On the command line of a target this session started. */
    LAUNCHED,
    /** Already in the target, waiting on its socket; handed its options there ({@code AgentSocket}). */
    WAITING_AGENT
  }

  private static final long END_WAIT_SECONDS = 3;

  private final AgentChannel channel;
  private final long pid;
  private final Process launched;
  private final Route route;
  private final Hierarchies hierarchies = new Hierarchies();
  private final SessionProbes probes = new SessionProbes(this::call, this::busy);
  private final Map<Long, SourceInfo> sources = new ConcurrentHashMap<>();
  private final List<Consumer<String>> exitListeners = new CopyOnWriteArrayList<>();
  private final Sampler sampler;
  private final MetricSession metrics = new MetricSession(this, () -> hello().calibration());
  private final CompletableFuture<String> ended = new CompletableFuture<>();
  private final RepositoryReader jfr;
  private final VmThreadsCpu vmThreads;
  private final ProcessIoCalls ioCalls;
  /** What became of the compiler directive that leaves the tool's code to C1 ({@link ToolCompilation#limit}). */
  private final String toolCompilation;
  private volatile String jfrUnavailable = "";
  private volatile State state = State.RUNNING;
  private volatile String endReason = "";

  TargetSession(AgentChannel channel, long pid, Process launched, SessionOptions options) {
    this(channel, pid, launched, options, launched != null ? Route.LAUNCHED : Route.ATTACHED,
        CompiledBeforeAttach.NONE, Instant.now());
  }

  /**
   * {@code compiled}: what the JIT had compiled before the agent came ({@link CompiledBeforeAttach});
   * {@code began}: when the daemon began bringing the agent in, before its JFR recording started: the repository
   * is read from there.
   */
  TargetSession(AgentChannel channel, long pid, Process launched, SessionOptions options, Route route,
      CompiledBeforeAttach compiled, Instant began) {
    this.channel = channel;
    this.pid = pid;
    this.launched = launched;
    this.route = route;
    this.jfr = openRepository(channel, pid, began);
    this.toolCompilation = ToolCompilation.limit(pid);
    this.vmThreads = new VmThreadsCpu(pid);
    this.ioCalls = new ProcessIoCalls(pid);
    this.sampler = new Sampler(this::readForSample, probes.byId(), sources, options.interval(), options.historySize(),
        s -> s.withMetrics(metrics.evaluate(s)));
    channel.onEvent(this::onEvent);
    channel.closed().thenAccept(this::onChannelClosed);
    if (jfr != null) {
      jfr.onSettled(sampler::flushed);
      jfr.sources().changedByTool(probes::changedByTool);
      jfr.sources().compiledBeforeAttach(compiled);
    }
    sampler.start();
  }

  /** The reader of the target's JFR repository, or null (with the reason kept) when it has none or it cannot be read. */
  private RepositoryReader openRepository(AgentChannel channel, long pid, Instant began) {
    String repository = channel.hello().jfrRepository();
    if (repository == null) {
      jfrUnavailable = "the agent reports no JFR repository (no jdk.jfr in the target, or its recording did not start)";
      return null;
    }
    Path checked;
    int uid;
    try {
      // the path comes from the agent: read nothing there unless it is the target user's own JFR directory
      uid = Uids.ofProcess(pid);
      checked = RepositoryReader.checked(TargetPaths.seenFromHere(pid, repository), uid);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw new SessionException(SessionException.Failure.FAILED, "the agent in process " + pid
          + " named a JFR repository the daemon will not read: " + e.getMessage(), e);
    }
    long period = channel.hello().calibration().getOrDefault("samplePeriodNanos", 20_000_000L);
    RepositoryReader reader = new RepositoryReader(checked, pid, uid, period, this::sendDigest);
    try {
      reader.start(began);
      return reader;
    } catch (IOException | RuntimeException e) {
      reader.close();
      jfrUnavailable = "cannot read the target's JFR repository " + repository + ": " + e.getMessage();
      return null;
    }
  }

  /** Discovery's digest of the last flush, for the agent; lost if the channel is gone (the session is ending). */
  private void sendDigest(Jfr digest) {
    if (state == State.RUNNING && channel.isOpen()) {
      channel.request(Jfr.OP, digest.toMap()).exceptionally(t -> null);
    }
  }

  /** A session over a channel whose agent has already connected and said hello, for process {@code pid}. */
  public static TargetSession over(AgentChannel channel, long pid, SessionOptions options) {
    return new TargetSession(channel, pid, null, options);
  }

  /** Attaches the agent to a running JVM; preflight warnings go to {@code warnings}. */
  public static TargetSession attach(long pid, SessionOptions options, PrintStream warnings) {
    return Connector.attach(pid, options, warnings);
  }

  /** Starts {@code java …} with the agent; the target's output is copied to {@code out}/{@code err} (null: dropped). */
  public static TargetSession launch(List<String> command, SessionOptions options, PrintStream out, PrintStream err) {
    return Connector.launch(command, options, out, err);
  }

  public long pid() {
    return pid;
  }

  /** How the agent came to the target. */
  public Route route() {
    return route;
  }

  public Hello hello() {
    return channel.hello();
  }

  public State state() {
    return state;
  }

  /** Why the session is no longer running, or empty while it is. */
  public String endReason() {
    return endReason;
  }

  /** The process this session started, if it launched the target. */
  public Optional<Process> launchedProcess() {
    return Optional.ofNullable(launched);
  }

  /** The resource at {@code path} ({@code /} for all roots) and its descendants to {@code depth} (-1: all). */
  @Override
  public List<ResourceEntry> resources(String path, int depth) {
    Function<String, Map<String, Object>> agent = p -> call(Resources.OP,
        new Resources("/".equals(p) ? null : ResourcePath.parse(p), depth).toMap(),
        "reading " + p);
    try {
      return hierarchies.read(path, depth, state == State.RUNNING ? agent : null, endReason);
    } catch (SessionException e) {
      if (state == State.RUNNING || e.failure() == SessionException.Failure.BAD_INPUT) {
        throw e;
      }
      return hierarchies.read(path, depth, null, endReason);
    }
  }

  /**
   * Why probes must not go into {@code className} now (a method of it has been running long), or null; right
   * after the attach it first waits for the samples that tell ({@link LongRunningFrames#awaitEvidence}).
   */
  private String busy(String className) {
    if (jfr == null || state != State.RUNNING) {
      return null; // without a reader nothing tells; an ended session refuses the probe itself
    }
    try {
      jfr.longRunning().awaitEvidence();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SessionException(SessionException.Failure.FAILED, "interrupted while reading what the target runs");
    }
    return jfr.longRunning().runningIn(className);
  }

  /** Inserts a probe of {@code kindWord} into the method {@code focus} names; {@code callee} only for call_site. */
  @Override
  public ProbeInfo enable(String focus, String kindWord, String callee, String askedBy) {
    return probes.enable(focus, kindWord, callee, askedBy);
  }

  /**
   * Inserts a probe of {@code kindWord} into each method {@code foci} name with one agent request (one
   * retransformation in the target). Per method, in order: its probe, or why it was refused (a malformed
   * focus is refused here, the rest by the agent, with the message {@link #enable} gives). A bad kind, or a
   * failed request, throws and inserts nothing.
   */
  @Override
  public List<BatchOutcome<ProbeInfo>> enableAll(List<String> foci, String kindWord, String askedBy) {
    return probes.enableAll(foci, kindWord, askedBy);
  }

  /** Removes a probe this session inserted. */
  public RemovedProbe disable(long probeId) {
    return probes.disable(probeId);
  }

  /**
   * Removes probes this session inserted with one agent request (one retransformation in the target). Per
   * id, in order: the probe removed, or why not (an id this session does not have is refused here). A failed
   * request throws and removes nothing.
   */
  @Override
  public List<BatchOutcome<RemovedProbe>> disableAll(List<Long> probeIds) {
    return probes.disableAll(probeIds);
  }


  /**
   * Starts counting a watched source (PROTOCOL.md, "Watched sources"): {@code event} and optional {@code code},
   * {@code thread}, {@code form}. The agent checks it; a bad source is refused (400) naming the field.
   */
  public SourceInfo watch(Map<String, ?> source, String askedBy) {
    if (source == null || source.isEmpty()) {
      throw SessionException.badInput("watch needs a source {\"event\":…, \"code\":…, \"thread\":…, \"form\":…}");
    }
    SourceSpec spec;
    try {
      spec = SourceSpec.fromMap(source);
    } catch (WireException e) {
      throw SessionException.badInput(e.getMessage());
    }
    return watch(spec, askedBy);
  }

  /** As {@link #watch(Map, String)}, for a source already read: the agent checks its event and filters together. */
  @Override
  public SourceInfo watch(SourceSpec source, String askedBy) {
    Map<String, Object> spec = source.toMap();
    if (state != State.RUNNING) {
      throw ended("watching " + spec);
    }
    if (jfr == null) {
      throw new SessionException(SessionException.Failure.FAILED, "cannot watch " + spec + ": " + jfrUnavailable);
    }
    Watched answer = Watched.fromMap(call(Watch.OP, new Watch(source).toMap(), "watching " + spec));
    jfr.sources().add(answer.sourceId(), source);
    SourceInfo info = new SourceInfo(answer.sourceId(), spec, askedBy == null ? "unknown" : askedBy,
        System.currentTimeMillis());
    sources.put(info.sourceId(), info);
    return info;
  }

  /** Stops a source this session watches. */
  @Override
  public SourceInfo unwatch(long sourceId) {
    SourceInfo info = sources.get(sourceId);
    if (info == null) {
      throw new SessionException(SessionException.Failure.NOT_FOUND, "no source " + sourceId
          + " in this session (its sources: " + (sources.isEmpty() ? "none" : sources.keySet()) + ")");
    }
    call(Unwatch.OP, new Unwatch(sourceId).toMap(), "unwatching source " + sourceId);
    sources.remove(sourceId);
    jfr.sources().remove(sourceId);
    return info;
  }

  /**
   * Starts measuring {@code metric} (built-in or added) at {@code focus}: compiles it, inserts its probes
   * (one per concrete method for a class or package focus) and watches its sources. Its value is in every
   * sample from then on ({@link Sample#metric}).
   */
  public ActiveMetric enableMetric(String metric, String focus, String askedBy) {
    return enableMetric(metric, focus, askedBy, null);
  }

  /**
   * As {@link #enableMetric(String, String, String)}, with the sampling period its {@code cpu_sample} sources
   * ask JFR for ({@code null}: the agent's configured one). JFR samples at the shortest period any source asks
   * for, so a search on a small budget can keep sampling slow while one on a larger budget samples faster.
   */
  public ActiveMetric enableMetric(String metric, String focus, String askedBy, Long samplePeriodMillis) {
    return enableMetric(metric, MetricSession.parseFocus(metric, focus), askedBy, samplePeriodMillis);
  }

  /** As {@link #enableMetric(String, String, String, Long)}, for a focus parsed where it entered (null: none given). */
  public ActiveMetric enableMetric(String metric, Focus focus, String askedBy, Long samplePeriodMillis) {
    if (samplePeriodMillis != null && (samplePeriodMillis < 1 || samplePeriodMillis > 1000)) {
      throw SessionException.badInput("samplePeriodMillis " + samplePeriodMillis + " is out of range (1 to 1000 ms)");
    }
    return metrics.enable(metric, focus, askedBy, samplePeriodMillis);
  }

  /**
   * The probe plan and predicted cost of a metric–focus pair, inserting nothing ({@code metric.plan}); enabling
   * the pair afterwards uses the same compiled plan.
   */
  public Map<String, Object> metricPlan(String metric, Focus focus) {
    return metrics.plan(metric, focus);
  }

  /** Stops a metric: removes exactly the probes and sources it inserted. */
  public Map<String, Object> disableMetric(long metricId) {
    return metrics.disable(metricId);
  }

  /** The metrics being measured. */
  public List<ActiveMetric> activeMetrics() {
    return metrics.active();
  }

  /** Adds a metric file to this session's library; on errors nothing is added. */
  public MetricFileOutcome addMetrics(String fileName, String text) {
    return metrics.add(fileName, text);
  }

  /** Every metric this session can measure: name, description, unit, derived, source (built-in or file). */
  public List<Map<String, Object>> metricList() {
    return metrics.list();
  }

  /** The sources this session watches. */
  public List<SourceInfo> sources() {
    return List.copyOf(sources.values());
  }

  /** The probes this session inserted and still has. */
  public List<ProbeInfo> probes() {
    return probes.all();
  }

  /** Every probe woven in the target, by any session, with this session's own "askedBy" where known. */
  public List<Map<String, Object>> ledger() {
    return ledgers().probes();
  }

  /** Every session's watched sources in the target, with this session's own "askedBy" where known. */
  public List<Map<String, Object>> sourceLedger() {
    return ledgers().sources();
  }

  /** The target's probes and watched sources, by every session, each with this session's "askedBy" where known. */
  public record Ledgers(List<Map<String, Object>> probes, List<Map<String, Object>> sources) {}

  /** The agent's ledger as it answered: every session's probes and watched sources, without this session's "askedBy". */
  public LedgerReply agentLedger() {
    return LedgerReply.fromMap(call(Ledger.OP, new Ledger().toMap(), "reading the ledger"));
  }

  /** Both ledgers, read with one request to the agent. */
  public Ledgers ledgers() {
    LedgerReply answer = agentLedger();
    return new Ledgers(probes.annotate(answer.entries().stream().map(ProbeEntry::toMap).toList()),
        SessionProbes.withAskedBy(answer.sources().stream().map(SourceEntry::toMap).toList(), "sourceId", id -> {
          SourceInfo mine = sources.get(id);
          return mine == null ? null : mine.askedBy();
        }));
  }

  /** Length and SHA-256 of a loaded class's bytes as a transformer sees them now, every probe applied. */
  public Map<String, Object> classBytes(String className) {
    if (className == null || className.isBlank()) {
      throw SessionException.badInput("classBytes needs 'className', a binary class name such as com.acme.Sim$Inner");
    }
    ClassDigest answer = ClassDigest.fromMap(call(ClassBytes.OP, new ClassBytes(className).toMap(),
        "reading the bytes of " + className));
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("className", className);
    result.putAll(answer.toMap());
    return result;
  }

  /**
   * One of the daemon's graphs of the target's code ({@link CallGraphs}: {@code cpu}, execution samples;
   * {@code io}, slow reads and writes; {@code sync}, contended monitor entries, waits and parks; {@code jit},
   * compiled methods) at or below a {@code /Code} path: samples, children (classes, methods, or a method's
   * callees) with theirs, and the methods most often on top.
   */
  public Map<String, Object> callGraph(String path, int limit, String graph, Set<DaemonRequests.CallGraph.Part> parts) {
    checkGraph(graph);
    ResourcePath at;
    try {
      at = ResourcePath.parse(path == null ? "/Code" : path);
    } catch (RuntimeException e) {
      throw SessionException.badInput("path: " + e.getMessage());
    }
    if (at.hierarchy() != Hierarchy.CODE || at.depth() > 3) {
      throw SessionException.badInput("path " + at + " is not /Code or a /Code package, class or method");
    }
    if (limit < 1 || limit > 10_000) {
      throw SessionException.badInput("limit must be between 1 and 10000, is " + limit);
    }
    if (jfr == null) {
      throw new SessionException(SessionException.Failure.FAILED, "no call graph: " + jfrUnavailable);
    }
    return new LinkedHashMap<>(jfr.graphs().get(graph).at(at, limit, parts));
  }

  /** A bad input naming the graphs a daemon keeps, unless {@code graph} is one of them. */
  private static void checkGraph(String graph) {
    if (!CallGraphs.NAMES.contains(graph)) {
      StringBuilder known = new StringBuilder();
      DaemonRequests.Stacks.GRAPHS.forEach((name, what) -> known.append(known.length() == 0 ? "" : "; ").append(name)
          .append(" (").append(what).append(')'));
      throw SessionException.badInput("graph must be one of " + known + ", is '" + graph + "'");
    }
  }

  /**
   * One of the daemon's graphs' sampled stacks merged into a tree from the outermost frame, for a flame graph:
   * its {@code max} nodes with the most samples ({@link dev.bottlenose.daemon.jfr.CallGraph#stacks}).
   */
  public Map<String, Object> stacks(String graph, int max) {
    checkGraph(graph);
    if (max < 1 || max > 10_000) {
      throw SessionException.badInput("max must be between 1 and 10000, is " + max);
    }
    if (jfr == null) {
      throw new SessionException(SessionException.Failure.FAILED, "no stacks: " + jfrUnavailable);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("graph", graph);
    m.putAll(jfr.graphs().get(graph).stacks(max));
    return m;
  }

  /**
   * Who holds the locks the target's threads wait for and what each holder does: the agent looks {@code looks}
   * times, {@code intervalMillis} apart ({@link Holders}); the answer is {@link HoldersReply}'s map.
   */
  public Map<String, Object> holders(int looks, long intervalMillis) {
    Holders asked;
    try {
      asked = new Holders(looks, intervalMillis);
    } catch (IllegalArgumentException e) {
      throw SessionException.badInput(e.getMessage());
    }
    return HoldersReply.fromMap(call(Holders.OP, asked.toMap(), "looking at lock holders")).toMap();
  }

  /**
   * The target's JFR recording as it is now (the last two minutes at most): the agent dumps it to a file of the
   * target's user ({@link Dump}), which is checked, read and deleted here ({@link RecordingDump}); larger than
   * {@code maxBytes}, or a file the daemon will not read, is a failure saying why.
   */
  public RecordingDump recording(long maxBytes) {
    if (maxBytes < 1) {
      throw SessionException.badInput("maxBytes must be 1 or more, is " + maxBytes);
    }
    DumpReply dumped = DumpReply.fromMap(call(Dump.OP, new Dump().toMap(), "dumping the JFR recording"));
    try {
      DumpReply here = new DumpReply(TargetPaths.seenFromHere(pid, dumped.path()), dumped.bytes(),
          dumped.recordingStartMillis(), dumped.dumpedAtMillis());
      return RecordingDump.read(here, Uids.ofProcess(pid), maxBytes);
    } catch (IOException | RuntimeException e) {
      throw new SessionException(SessionException.Failure.FAILED, "reading the JFR recording the agent in process "
          + pid + " dumped failed: " + e.getMessage(), e);
    }
  }

  /** The session's state, the target, its probes and the agent's own status while it runs. */
  public Map<String, Object> status() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("state", state.name());
    s.put("pid", pid);
    s.put("mainClass", hello().mainClass());
    s.put("javaVersion", hello().javaVersion());
    s.put("intervalMillis", sampler.interval().toMillis());
    s.put("toolCompilation", toolCompilation);
    s.put("calibration", new java.util.TreeMap<>(hello().calibration()));
    s.put("probes", probes.byId().size());
    s.put("metrics", metrics.active().stream().map(m -> Map.of("metricId", m.metricId(), "metric", m.metric(),
        "focus", m.focus())).toList());
    s.put("sources", sources.values().stream().map(SourceInfo::toJson).toList());
    s.put("samples", sampler.history(Integer.MAX_VALUE).size());
    s.put("resourcesSeen", hierarchies.seen());
    s.put("jfr", jfr == null ? Map.of("unavailable", jfrUnavailable) : jfr.status());
    Map<String, Object> agent = state == State.RUNNING ? agentStatus() : null;
    if (agent != null) {
      s.put("agent", agent);
    } else {
      s.put("state", state.name());
      s.put("endReason", endReason);
    }
    return s;
  }

  /** The agent's status, or null when the session ended while asking. */
  private Map<String, Object> agentStatus() {
    try {
      return AgentStatus.fromMap(call(Status.OP, new Status().toMap(), "reading the agent's status")).toMap();
    } catch (SessionException e) {
      if (state == State.RUNNING) {
        throw e;
      }
      return null;
    }
  }

  public Sampler values() {
    return sampler;
  }

  /** Adds a listener for hierarchy changes (the agent's {@code changes} lists). */
  public void onChanges(Consumer<List<Map<String, Object>>> listener) {
    hierarchies.onChanges(listener);
  }

  /** Called once with the reason when the target exits or the agent goes away. */
  public void onEnd(Consumer<String> listener) {
    exitListeners.add(listener);
  }

  /** The agent's counters with this daemon's source totals from the repository. */
  private Totals readForSample() {
    if (state != State.RUNNING || !channel.isOpen()) {
      return null;
    }
    ReadReply answer = ReadReply.fromMap(channel.call(Read.OP, new Read().toMap()));
    if (jfr != null) {
      jfr.sources().samplePeriod(answer.samplePeriodNanos());
    }
    // the stackless ones first: the reader counts an event in both, the whole count first, so this never sees more
    // stackless events than events
    long stackless = jfr == null ? 0 : jfr.stacklessSourceEvents();
    long events = jfr == null ? 0 : jfr.sourceEvents();
    return new Totals(answer, jfr == null ? List.of() : jfr.sources().totals(), events, stackless,
        vmThreads.nanos(), ioCalls.calls(), OwnCpu.nanos(), jfr == null ? -1 : jfr.sources().toolJitNanos(),
        jfr == null ? -1 : jfr.sources().jitNanos());
  }

  private Map<String, Object> call(String op, Map<String, ?> args, String what) {
    if (state != State.RUNNING) {
      throw ended(what);
    }
    try {
      return channel.call(op, args);
    } catch (AgentException e) {
      throw new SessionException(SessionException.fromAgentCode(e.code()), what + " failed: " + e.getMessage(), e);
    } catch (ChannelException e) {
      if (!channel.isOpen() && awaitEnd()) {
        throw ended(what);
      }
      throw new SessionException(SessionException.Failure.FAILED, what + " failed: " + e.getMessage(), e);
    }
  }

  private SessionException ended(String what) {
    SessionException.Failure failure = state == State.TARGET_EXITED ? SessionException.Failure.TARGET_EXITED
        : SessionException.Failure.FAILED;
    return new SessionException(failure, "cannot do " + what + ": " + endReason
        + " (what was measured so far is kept)");
  }

  /** Waits while a closed channel is being told apart as exit or disconnect; true once the session has ended. */
  private boolean awaitEnd() {
    try {
      ended.get(END_WAIT_SECONDS, TimeUnit.SECONDS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  private void onEvent(Map<String, Object> event) {
    if (Changes.isChanges(event)) {
      hierarchies.apply(Changes.fromMap(event));
    }
  }

  private void onChannelClosed(String reason) {
    if (state == State.CLOSED) {
      return;
    }
    sampler.stop();
    closeRepository();
    ProcessHandle handle = ProcessHandle.of(pid).orElse(null);
    boolean exited = handle == null || exitsSoon(handle);
    endReason = exited ? "target process " + pid + " exited" + exitCode() : "the agent in process " + pid
        + " closed the session (" + reason + ")";
    state = exited ? State.TARGET_EXITED : State.DISCONNECTED;
    ended.complete(endReason);
    exitListeners.forEach(l -> l.accept(endReason));
  }

  private static boolean exitsSoon(ProcessHandle handle) {
    try {
      handle.onExit().get(1, TimeUnit.SECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      return !handle.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !handle.isAlive();
    }
  }

  private String exitCode() {
    if (launched == null) {
      return "";
    }
    try {
      return launched.waitFor(2, TimeUnit.SECONDS) ? " with code " + launched.exitValue() : "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** Stops sampling and says bye: the agent removes this session's probes. The target keeps running. */
  @Override
  public void close() {
    if (state == State.RUNNING) {
      state = State.CLOSED;
      endReason = "the session was closed";
    }
    sampler.stop();
    closeRepository();
    channel.close();
  }

  private void closeRepository() {
    if (jfr != null) {
      jfr.close();
    }
  }
}
