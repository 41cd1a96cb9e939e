package dev.bottlenose.agent;

import dev.bottlenose.agent.sources.WatchedSources;
import dev.bottlenose.agent.wire.Bye;
import dev.bottlenose.agent.wire.ClassBytes;
import dev.bottlenose.agent.wire.ErrorFrame;
import dev.bottlenose.agent.wire.Ping;
import dev.bottlenose.agent.wire.Pong;
import dev.bottlenose.agent.wire.Resources;
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

  Requests(AgentRuntime runtime, String requester, int session) {
    this.session = session;
    this.runtime = runtime;
    this.requester = requester;
    this.probes = new ProbeRequests(runtime, requester);
  }

  Map<String, Object> answer(Map<String, Object> request) {
    Object id = request.get("id");
    if (!(id instanceof Long)) {
      return error(null, "BAD_REQUEST", "request has no integer id: " + request);
    }
    Object op = request.get("op");
    try {
      Map<String, Object> result = switch (String.valueOf(op)) {
        case Ping.OP -> new Pong(System.nanoTime()).toMap();
        case "resources" -> resources(request);
        case "insert" -> probes.insert(request);
        case "insertAll" -> probes.insertAll(request);
        case "remove" -> probes.remove(request);
        case "removeMany" -> probes.removeMany(request);
        case "removeAll" -> probes.removeAll();
        case "read" -> read();
        case "ledger" -> ledger();
        case "status" -> status();
        case "classBytes" -> classBytes(request);
        case Watch.OP -> watch(request);
        case "unwatch" -> unwatch(request);
        case "jfr" -> jfr(request);
        case Bye.OP -> new Bye().toMap();
        default -> throw new RequestException("UNKNOWN_OP", "unknown op '" + op
            + "' (known: ping, resources, insert, insertAll, remove, removeMany, removeAll, read, ledger, status,"
            + " classBytes, watch, unwatch, jfr, bye)");
      };
      Map<String, Object> response = new LinkedHashMap<>();
      response.put("re", id);
      response.put("ok", true);
      response.putAll(result);
      return response;
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
    List<Object> out = new ArrayList<>();
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
    return Map.of("resources", out);
  }

  /** A daemon's digest of the recording's events: taken from the oldest session only, so none counts twice. */
  private Map<String, Object> jfr(Map<String, Object> request) {
    if (!runtime.takesDigestsFrom(session)) {
      return Map.of("applied", 0L, "taken", false);
    }
    return Map.of("applied", (long) runtime.discovery().applyJfr(request), "taken", true);
  }

  private Map<String, Object> read() {
    List<Object> readings = new ArrayList<>();
    for (ProbeReading r : runtime.probes.read()) {
      readings.add(readingJson(r));
    }
    ProbeCost c = runtime.probes.cost();
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("executions", c.executions());
    cost.put("probeNanos", c.probeNanos());
    cost.put("retransformNanos", c.retransformNanos());
    long processCpu = AgentRuntime.processCpuNanos();
    long agentCpu = runtime.discovery().agentCpuNanos();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("nanoTime", System.nanoTime());
    m.put("readings", readings);
    m.put("cost", cost);
    if (agentCpu >= 0) {
      m.put("agentCpuNanos", agentCpu);
    }
    if (processCpu >= 0) {
      m.put("processCpuNanos", processCpu);
    }
    m.put("vm", runtime.discovery().vmTotals(processCpu));
    if (runtime.sources != null) {
      m.put("samplePeriodNanos", runtime.sources.effectiveSamplePeriodNanos());
    }
    return m;
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


  private Map<String, Object> readingJson(ProbeReading r) {
    long nanos = r.nanos();
    AgentRuntime.MonitorBaseline b = runtime.monitorBaselines.get(r.probeId());
    if (b != null) {
      nanos += runtime.discovery().monitorWaits().nanos(b.className(), b.methodName(), b.descriptor()) - b.nanos();
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", r.probeId());
    m.put("kind", r.kind().word());
    m.put("count", r.count());
    m.put("nanos", nanos);
    m.put("bytes", r.bytes());
    m.put("countByType", r.countByType() == null ? Map.of() : r.countByType());
    m.put("bytesByType", r.bytesByType() == null ? Map.of() : r.bytesByType());
    return m;
  }

  private Map<String, Object> ledger() {
    List<Object> entries = new ArrayList<>();
    for (LedgerEntry e : runtime.probes.ledger()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("probeId", e.probeId());
      m.put("method", e.method().toPath().toString());
      m.put("kind", e.kind().word());
      m.put("callee", e.callee() == null ? null : e.callee().toPath().toString());
      m.put("requester", e.requester());
      m.put("sinceMillis", e.sinceEpochMillis());
      entries.add(m);
    }
    return Map.of("entries", entries, "sources", runtime.sources == null ? List.of() : runtime.sources.ledger());
  }

  private Map<String, Object> status() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("suppressedErrors", runtime.probes.suppressedErrors());
    m.put("sessions", runtime.openSessions());
    m.put("probes", runtime.probes.ledger().size());
    m.put("requester", requester);
    if (runtime.sources != null) {
      m.put("sources", runtime.sources.ledger());
      m.put("jfr", runtime.recording.status());
    }
    long allocated = AgentThreads.allocatedBytes();
    if (allocated >= 0) {
      m.put("bytesAllocatedByAgentThreads", allocated);
    }
    return m;
  }

  private Map<String, Object> classBytes(Map<String, Object> request) throws RequestException, ProbeException {
    String className = ClassBytes.fromMap(request).className();
    byte[] bytes = runtime.probes.currentClassBytes(className);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return Map.of("length", (long) bytes.length, "sha256", HexFormat.of().formatHex(digest));
    } catch (NoSuchAlgorithmException e) {
      throw new RequestException("INTERNAL_ERROR", "no SHA-256 in this JVM: " + e.getMessage());
    }
  }

  static Map<String, Object> resourceJson(Resource r) {
    return ModelJson.toJson(r);
  }
}
