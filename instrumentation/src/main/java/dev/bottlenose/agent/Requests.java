package dev.bottlenose.agent;

import dev.bottlenose.agent.sources.WatchedSources;
import dev.bottlenose.agent.wire.AgentStatus;
import dev.bottlenose.agent.wire.Bye;
import dev.bottlenose.agent.wire.ClassBytes;
import dev.bottlenose.agent.wire.ClassDigest;
import dev.bottlenose.agent.wire.Dump;
import dev.bottlenose.agent.wire.ErrorFrame;
import dev.bottlenose.agent.wire.InsertAll;
import dev.bottlenose.agent.wire.Jfr;
import dev.bottlenose.agent.wire.JfrApplied;
import dev.bottlenose.agent.wire.Holders;
import dev.bottlenose.agent.wire.Ledger;
import dev.bottlenose.agent.wire.LedgerReply;
import dev.bottlenose.agent.wire.Ping;
import dev.bottlenose.agent.wire.Pong;
import dev.bottlenose.agent.wire.ProbeEntry;
import dev.bottlenose.agent.wire.ProbeSpec;
import dev.bottlenose.agent.wire.Read;
import dev.bottlenose.agent.wire.ReadReply;
import dev.bottlenose.agent.wire.Reading;
import dev.bottlenose.agent.wire.Remove;
import dev.bottlenose.agent.wire.RemoveAll;
import dev.bottlenose.agent.wire.RemoveMany;
import dev.bottlenose.agent.wire.Request;
import dev.bottlenose.agent.wire.Resources;
import dev.bottlenose.agent.wire.ResourcesReply;
import dev.bottlenose.agent.wire.Status;
import dev.bottlenose.agent.wire.Unwatch;
import dev.bottlenose.agent.wire.Watch;
import dev.bottlenose.agent.wire.Watched;
import dev.bottlenose.agent.wire.WireException;
import dev.bottlenose.instrumentation.LedgerEntry;
import dev.bottlenose.instrumentation.ProbeCost;
import dev.bottlenose.instrumentation.ProbeException;
import dev.bottlenose.instrumentation.ProbeReading;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.json.ModelJson;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Answers one session's requests; every answer is a response map, refusals included. */
final class Requests {
  private final AgentRuntime runtime;
  private final String requester;
  private final int session;
  private final ProbeRequests probes;
  private final RecordingDumps dumps;

  Requests(AgentRuntime runtime, String requester, int session) {
    this.session = session;
    this.runtime = runtime;
    this.requester = requester;
    this.probes = new ProbeRequests(runtime, requester);
    this.dumps = new RecordingDumps(runtime.recording);
  }

  /** The session has ended: what is left of its dumps goes. */
  void close() {
    dumps.close();
  }

  Map<String, Object> answer(Map<String, Object> frame) {
    Object id = frame.get("id");
    Request asked;
    try {
      asked = Request.fromMap(frame);
    } catch (WireException e) {
      return error(id, "BAD_REQUEST", e.getMessage());
    } catch (RuntimeException e) {
      return error(id, "INTERNAL_ERROR", "reading the request failed: " + e);
    }
    String op = asked.op();
    Map<String, Object> request = asked.arguments();
    try {
      Map<String, Object> result = switch (op) {
        case Ping.OP -> ping(Ping.fromMap(request));
        case Resources.OP -> resources(request);
        case ProbeSpec.OP -> probes.insert(request);
        case InsertAll.OP -> probes.insertAll(request);
        case Remove.OP -> probes.remove(request);
        case RemoveMany.OP -> probes.removeMany(request);
        case RemoveAll.OP -> probes.removeAll(RemoveAll.fromMap(request));
        case Read.OP -> read(Read.fromMap(request));
        case Ledger.OP -> ledger(Ledger.fromMap(request));
        case Status.OP -> status(Status.fromMap(request));
        case ClassBytes.OP -> classBytes(request);
        case Watch.OP -> watch(request);
        case Unwatch.OP -> unwatch(request);
        case Jfr.OP -> jfr(request);
        case Holders.OP -> LockHolders.look(Holders.fromMap(request)).toMap();
        case Dump.OP -> dumps.dump(Dump.fromMap(request)).toMap();
        case Bye.OP -> Bye.fromMap(request).toMap();
        default -> throw new RequestException("UNKNOWN_OP", "unknown op '" + op
            + "' (known: ping, resources, insert, insertAll, remove, removeMany, removeAll, read, ledger, status,"
            + " classBytes, watch, unwatch, jfr, holders, dump, bye)");
      };
      return asked.answer(result);
    } catch (RequestException e) {
      return error(id, e.code(), e.getMessage());
    } catch (WireException e) {
      return error(id, "BAD_REQUEST", e.getMessage());
    } catch (ProbeException e) {
      return error(id, e.reason().name(), e.getMessage());
    } catch (RuntimeException | LinkageError e) {
      return error(id, "INTERNAL_ERROR", op + " failed: " + e);
    }
  }

  static Map<String, Object> error(Object re, String code, String message) {
    return new ErrorFrame(re instanceof Long id ? id : null, code, message).toMap();
  }

  private Map<String, Object> resources(Map<String, Object> request) throws RequestException {
    Resources asked = Resources.fromMap(request);
    int depth = asked.depth();
    List<Map<String, Object>> out = new ArrayList<>();
    if (asked.path() == null) {
      for (Hierarchy h : Hierarchy.values()) {
        List<Resource> found = runtime.discovery().resources(h.root(), depth < 0 ? -1 : depth - 1);
        if (depth != 0 && found != null) {
          found.forEach(r -> out.add(resourceJson(r)));
        }
      }
    } else {
      List<Resource> found = runtime.discovery().resources(asked.path(), depth);
      if (found == null) {
        throw new RequestException("NO_SUCH_RESOURCE", "no resource " + asked.path());
      }
      found.forEach(r -> out.add(resourceJson(r)));
    }
    return new ResourcesReply(out).toMap();
  }

  /** A daemon's digest of the recording's events: taken from the oldest session only, so none counts twice. */
  private Map<String, Object> jfr(Map<String, Object> request) {
    Jfr digest = Jfr.fromMap(request);
    if (!runtime.takesDigestsFrom(session)) {
      return new JfrApplied(0, false).toMap();
    }
    runtime.contentionThresholds(digest.thresholds());
    return new JfrApplied(runtime.discovery().applyJfr(digest), true).toMap();
  }

  /** The agent's clock: the answer to the heartbeat. */
  private static Map<String, Object> ping(Ping asked) {
    return new Pong(System.nanoTime()).toMap();
  }

  private Map<String, Object> read(Read asked) {
    List<Reading> readings = new ArrayList<>();
    for (ProbeReading r : runtime.probes.read()) {
      readings.add(reading(r));
    }
    ProbeCost cost = runtime.probes.cost();
    long processCpu = AgentRuntime.processCpuNanos();
    long agentCpu = runtime.discovery().agentCpuNanos();
    long nanoTime = System.nanoTime();
    Map<String, Long> vm = new LinkedHashMap<>();
    runtime.discovery().vmTotals(processCpu).forEach((k, v) -> {
      if (v instanceof Number n) {
        vm.put(k, n.longValue());
      }
    });
    return new ReadReply(nanoTime, readings, cost, agentCpu, processCpu, vm,
        runtime.sources == null ? -1 : runtime.sources.effectiveSamplePeriodNanos()).toMap();
  }

  private Map<String, Object> watch(Map<String, Object> request) throws RequestException {
    Watch asked = Watch.fromMap(request);
    try {
      return new Watched(sources().watch(asked.source(), requester)).toMap();
    } catch (WireException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new RequestException("BAD_REQUEST", e.getMessage());
    } catch (IllegalStateException e) {
      throw new RequestException("SOURCES_UNAVAILABLE", e.getMessage());
    }
  }

  private WatchedSources sources() throws RequestException {
    if (runtime.sources == null) {
      throw new RequestException("SOURCES_UNAVAILABLE", "this JVM has no JFR (module jdk.jfr): no watched sources");
    }
    return runtime.sources;
  }

  private Map<String, Object> unwatch(Map<String, Object> request) throws RequestException {
    long id = Unwatch.fromMap(request).sourceId();
    if (!sources().unwatch(id, requester)) {
      throw new RequestException("NO_SUCH_SOURCE", "no source " + id + " in this session");
    }
    return Map.of();
  }


  private Reading reading(ProbeReading r) {
    long nanos = r.nanos();
    AgentRuntime.MonitorBaseline b = runtime.monitorBaselines.get(r.probeId());
    if (b != null) {
      nanos += runtime.discovery().monitorWaits().nanos(b.className(), b.methodName(), b.descriptor()) - b.nanos();
    }
    return new Reading(r.probeId(), r.kind(), r.count(), nanos, r.bytes(), r.countByType(), r.bytesByType());
  }

  private Map<String, Object> ledger(Ledger asked) {
    List<ProbeEntry> entries = new ArrayList<>();
    for (LedgerEntry e : runtime.probes.ledger()) {
      entries.add(new ProbeEntry(e.probeId(), e.method(), e.kind(), e.callee(), e.requester(), e.sinceEpochMillis()));
    }
    return new LedgerReply(entries, runtime.sources == null ? List.of() : runtime.sources.ledger()).toMap();
  }

  private Map<String, Object> status(Status asked) {
    boolean jfr = runtime.sources != null;
    return new AgentStatus(runtime.probes.suppressedErrors(), runtime.openSessions(), runtime.probes.ledger().size(),
        requester, jfr ? runtime.sources.ledger() : null, jfr ? runtime.recording.status() : null,
        AgentThreads.allocatedBytes()).toMap();
  }

  private Map<String, Object> classBytes(Map<String, Object> request) throws RequestException, ProbeException {
    String className = ClassBytes.fromMap(request).className();
    byte[] bytes = runtime.probes.currentClassBytes(className);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return new ClassDigest(bytes.length, HexFormat.of().formatHex(digest)).toMap();
    } catch (NoSuchAlgorithmException e) {
      throw new RequestException("INTERNAL_ERROR", "no SHA-256 in this JVM: " + e.getMessage());
    }
  }

  static Map<String, Object> resourceJson(Resource r) {
    return ModelJson.toJson(r);
  }
}
