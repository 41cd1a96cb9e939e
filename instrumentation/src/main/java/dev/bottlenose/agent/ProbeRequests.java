package dev.bottlenose.agent;

import dev.bottlenose.agent.wire.Failure;
import dev.bottlenose.agent.wire.InsertAll;
import dev.bottlenose.agent.wire.Inserted;
import dev.bottlenose.agent.wire.ProbeSpec;
import dev.bottlenose.agent.wire.Remove;
import dev.bottlenose.agent.wire.RemoveAll;
import dev.bottlenose.agent.wire.RemoveMany;
import dev.bottlenose.agent.wire.RemoveReply;
import dev.bottlenose.agent.wire.Removed;
import dev.bottlenose.agent.wire.WireException;
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
import java.util.List;
import java.util.Map;

/**
 * The probe ops of a session: insert and remove one probe, or a batch with one retransformation. Requests and
 * answers are the records of {@code agent.wire}; a malformed field is a {@link WireException}, answered as
 * {@code BAD_REQUEST}.
 */
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
    ProbeRequest probe = probeRequest(ProbeSpec.fromMap(request));
    return inserted(runtime.probes.insert(probe), probe.kind()).toMap();
  }

  /** Each item checked as {@link #insert} checks it; the valid ones go in with one retransformation. */
  Map<String, Object> insertAll(Map<String, Object> request) {
    List<?> items = InsertAll.items(request);
    Object[] results = new Object[items.size()];
    List<ProbeRequest> valid = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      try {
        valid.add(probeRequest(InsertAll.item(items.get(i), i)));
        positions.add(i);
      } catch (RequestException e) {
        results[i] = new Failure(null, e.code(), e.getMessage()).toItem();
      } catch (WireException e) {
        results[i] = new Failure(null, "BAD_REQUEST", e.getMessage()).toItem();
      }
    }
    List<InsertOutcome> outcomes = runtime.probes.insertAll(valid);
    for (int k = 0; k < outcomes.size(); k++) {
      InsertOutcome o = outcomes.get(k);
      results[positions.get(k)] = o.ok() ? inserted(o.result(), valid.get(k).kind()).toMap()
          : new Failure(null, o.failure().reason().name(), o.failure().getMessage()).toItem();
    }
    return Map.of("results", Arrays.asList(results));
  }

  Map<String, Object> remove(Map<String, Object> request) throws ProbeException {
    long probeId = Remove.fromMap(request).probeId();
    RemoveResult r = runtime.probes.remove(probeId);
    runtime.monitorBaselines.remove(probeId);
    return removed(r).toMap();
  }

  /** Removes the probes with one retransformation; the ids that cannot go are listed with why. */
  Map<String, Object> removeMany(Map<String, Object> request) {
    List<Removed> removed = new ArrayList<>();
    List<Failure> failures = new ArrayList<>();
    for (RemoveOutcome o : runtime.probes.removeMany(RemoveMany.fromMap(request).probeIds())) {
      if (o.ok()) {
        runtime.monitorBaselines.remove(o.probeId());
        removed.add(removed(o.result()));
      } else {
        failures.add(new Failure(o.probeId(), o.failure().reason().name(), o.failure().getMessage()));
      }
    }
    return new RemoveReply(removed, failures).toMap();
  }

  /** This session's own probes, with one retransformation. */
  Map<String, Object> removeAll(RemoveAll asked) {
    List<Removed> out = new ArrayList<>();
    for (RemoveResult r : runtime.probes.removeAll(requester)) {
      runtime.monitorBaselines.remove(r.probeId());
      out.add(removed(r));
    }
    return new RemoveReply(out, List.of()).toMap();
  }

  private ProbeRequest probeRequest(ProbeSpec spec) throws RequestException {
    methods.check(spec.method());
    return new ProbeRequest(spec.method(), spec.kind(), spec.callee(), requester);
  }

  private Inserted inserted(InsertResult result, ProbeKind kind) {
    if (kind == ProbeKind.MONITOR && methods.isSynchronized(result.method())) {
      MethodRef m = result.method();
      runtime.monitorBaselines.put(result.probeId(), new AgentRuntime.MonitorBaseline(m.className(), m.methodName(),
          m.descriptor(), runtime.discovery().monitorWaits().nanos(m.className(), m.methodName(), m.descriptor())));
    }
    return new Inserted(result.probeId(), result.method(), result.retransformNanos());
  }

  private static Removed removed(RemoveResult r) {
    return new Removed(r.probeId(), r.className(), r.retransformNanos(), r.classRestored());
  }
}
