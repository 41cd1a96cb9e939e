package dev.bottlenose.agent;

import dev.bottlenose.instrumentation.InsertOutcome;
import dev.bottlenose.instrumentation.InsertResult;
import dev.bottlenose.instrumentation.ProbeException;
import dev.bottlenose.instrumentation.ProbeKind;
import dev.bottlenose.instrumentation.ProbeRequest;
import dev.bottlenose.instrumentation.RemoveOutcome;
import dev.bottlenose.instrumentation.RemoveResult;
import dev.bottlenose.model.MethodRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The probe ops of a session: insert and remove one probe, or a batch with one retransformation. */
final class ProbeRequests {
  private final AgentRuntime runtime;
  private final String requester;
  private final MethodCheck methods;

  ProbeRequests(AgentRuntime runtime, String requester) {
    this.runtime = runtime;
    this.requester = requester;
    this.methods = new MethodCheck(runtime);
  }

  Map<String, Object> insert(Map<String, Object> request) throws RequestException, ProbeException {
    ProbeRequest probe = probeRequest(request);
    return inserted(runtime.probes.insert(probe), probe.kind());
  }

  /** Each item checked as {@link #insert} checks it; the valid ones go in with one retransformation. */
  Map<String, Object> insertAll(Map<String, Object> request) throws RequestException {
    List<?> items = list(request, "probes", "insertAll needs probes: [{\"method\":…, \"kind\":…, \"callee\":…}, …]");
    Object[] results = new Object[items.size()];
    List<ProbeRequest> valid = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      try {
        valid.add(probeRequest(item(items.get(i), i)));
        positions.add(i);
      } catch (RequestException e) {
        results[i] = itemError(e.code(), e.getMessage());
      }
    }
    List<InsertOutcome> outcomes = runtime.probes.insertAll(valid);
    for (int k = 0; k < outcomes.size(); k++) {
      InsertOutcome o = outcomes.get(k);
      results[positions.get(k)] = o.ok() ? inserted(o.result(), valid.get(k).kind())
          : itemError(o.failure().reason().name(), o.failure().getMessage());
    }
    return Map.of("results", Arrays.asList(results));
  }

  Map<String, Object> remove(Map<String, Object> request) throws RequestException, ProbeException {
    long probeId = Arguments.number(request, "probeId", Long.MIN_VALUE);
    if (probeId == Long.MIN_VALUE) {
      throw new RequestException("BAD_REQUEST", "remove needs a probeId");
    }
    RemoveResult r = runtime.probes.remove(probeId);
    runtime.monitorBaselines.remove(probeId);
    return removed(r);
  }

  /** Removes the probes with one retransformation; the ids that cannot go are listed with why. */
  Map<String, Object> removeMany(Map<String, Object> request) throws RequestException {
    List<?> items = list(request, "probeIds", "removeMany needs probeIds: [probeId, …]");
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof Long id)) {
        throw new RequestException("BAD_REQUEST", "probeIds[" + i + "] must be an integer probe id, not " + items.get(i));
      }
      ids.add(id);
    }
    List<Object> removed = new ArrayList<>();
    List<Object> failures = new ArrayList<>();
    for (RemoveOutcome o : runtime.probes.removeMany(ids)) {
      if (o.ok()) {
        runtime.monitorBaselines.remove(o.probeId());
        removed.add(removed(o.result()));
      } else {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("probeId", o.probeId());
        f.put("code", o.failure().reason().name());
        f.put("message", o.failure().getMessage());
        failures.add(f);
      }
    }
    return Map.of("removed", removed, "failures", failures);
  }

  Map<String, Object> removeAll() {
    List<Object> out = new ArrayList<>();
    for (RemoveResult r : runtime.probes.removeAll(requester)) {
      runtime.monitorBaselines.remove(r.probeId());
      out.add(removed(r));
    }
    return Map.of("removed", out);
  }

  private ProbeRequest probeRequest(Map<String, Object> request) throws RequestException {
    MethodRef method = Arguments.methodPath(request, "method");
    String kindWord = Arguments.string(request, "kind", null);
    ProbeKind kind = ProbeKind.byWord(kindWord);
    if (kind == null) {
      throw new RequestException("BAD_REQUEST", "unknown probe kind '" + kindWord + "' (known: "
          + String.join(", ", Arrays.stream(ProbeKind.values()).map(ProbeKind::word).toList()) + ")");
    }
    MethodRef callee = request.get("callee") == null ? null : Arguments.methodPath(request, "callee");
    if ((kind == ProbeKind.CALL_SITE) != (callee != null)) {
      throw new RequestException("BAD_REQUEST", "callee is required for call_site probes and only for them");
    }
    methods.check(method);
    return new ProbeRequest(method, kind, callee, requester);
  }

  private Map<String, Object> inserted(InsertResult result, ProbeKind kind) {
    if (kind == ProbeKind.MONITOR && methods.isSynchronized(result.method())) {
      MethodRef m = result.method();
      runtime.monitorBaselines.put(result.probeId(), new AgentRuntime.MonitorBaseline(m.className(), m.methodName(),
          m.descriptor(), runtime.discovery().monitorWaits().nanos(m.className(), m.methodName(), m.descriptor())));
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", result.probeId());
    m.put("method", result.method().toPath().toString());
    m.put("retransformNanos", result.retransformNanos());
    return m;
  }

  private static Map<String, Object> removed(RemoveResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probeId", r.probeId());
    m.put("className", r.className());
    m.put("retransformNanos", r.retransformNanos());
    m.put("classRestored", r.classRestored());
    return m;
  }

  private static List<?> list(Map<String, Object> request, String name, String usage) throws RequestException {
    Object v = request.get(name);
    if (!(v instanceof List<?> items)) {
      throw new RequestException("BAD_REQUEST", v == null ? usage : name + " must be a list, not " + v);
    }
    return items;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> item(Object item, int position) throws RequestException {
    if (!(item instanceof Map<?, ?>)) {
      throw new RequestException("BAD_REQUEST", "probes[" + position + "] must be an object {\"method\":…, \"kind\":…}, not "
          + item);
    }
    return (Map<String, Object>) item;
  }

  private static Map<String, Object> itemError(String code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    return Map.of("error", error);
  }
}
