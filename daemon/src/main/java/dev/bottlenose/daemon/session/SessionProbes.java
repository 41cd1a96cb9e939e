package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.Failure;
import dev.bottlenose.agent.wire.Fields;
import dev.bottlenose.agent.wire.InsertAll;
import dev.bottlenose.agent.wire.Inserted;
import dev.bottlenose.agent.wire.ProbeSpec;
import dev.bottlenose.agent.wire.Remove;
import dev.bottlenose.agent.wire.RemoveMany;
import dev.bottlenose.agent.wire.RemoveReply;
import dev.bottlenose.agent.wire.Removed;
import dev.bottlenose.instrumentation.ProbeKind;
import dev.bottlenose.model.CodePaths;
import dev.bottlenose.model.MethodRef;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/**
 * The probes one session owns: inserting and removing them through the agent (one request each, or one
 * batch), and their book, id to {@link ProbeInfo}, the one place the session keeps them. It is handed the way
 * to ask the agent; it does not know the session.
 */
final class SessionProbes {
  /** One request to the agent: its answer, or a {@link SessionException} that says what was being done. */
  @FunctionalInterface
  interface Agent {
    Map<String, Object> call(String op, Map<String, ?> args, String what);
  }

  private final Map<Long, ProbeInfo> probes = new ConcurrentHashMap<>();
  /**
   * The classes this session changed, by binary name: when their first probe went in, and until when their code's
   * compilations are the tool's wake (the last probe's removal plus {@link #WAKE_MILLIS}; {@code Long.MAX_VALUE}
   * while a probe is in).
   */
  private final Map<String, long[]> changed = new ConcurrentHashMap<>();
  /** How long after a class's last probe left it the JIT still recompiles its methods because of it. */
  static final long WAKE_MILLIS = 10_000;
  private final Agent agent;
  private final Function<String, String> busy;

  /**
   * {@code busy}: why a class (binary name) must not be retransformed now, or null when it may be; a probe into
   * a busy class is refused ({@link SessionException.Failure#BUSY}) before the agent is asked.
   */
  SessionProbes(Agent agent, Function<String, String> busy) {
    this.agent = agent;
    this.busy = busy;
  }

  /** The book, read-only (the sampler names each reading's method from it). */
  Map<Long, ProbeInfo> byId() {
    return Collections.unmodifiableMap(probes);
  }

  List<ProbeInfo> all() {
    return List.copyOf(probes.values());
  }

  /** Inserts a probe of {@code kindWord} into the method {@code focus} names; {@code callee} only for call_site. */
  ProbeInfo enable(String focus, String kindWord, String callee, String askedBy) {
    ProbeSpec spec = notBusy(spec(focus, kindWord, callee));
    Inserted answer = Inserted.fromMap(agent.call(ProbeSpec.OP, spec.toMap(), "inserting " + describe(spec)));
    return book(answer, spec, askedBy);
  }

  /** As {@link TargetSession#enableAll}. */
  List<BatchOutcome<ProbeInfo>> enableAll(List<String> foci, String kindWord, String askedBy) {
    if (kind(kindWord) == ProbeKind.CALL_SITE) {
      throw SessionException.badInput("call_site probes need a callee each; insert them one by one");
    }
    List<BatchOutcome<ProbeInfo>> outcomes = new ArrayList<>();
    List<ProbeSpec> sent = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    for (String focus : foci) {
      try {
        sent.add(notBusy(spec(focus, kindWord, null)));
        positions.add(outcomes.size());
        outcomes.add(null);
      } catch (SessionException e) {
        outcomes.add(BatchOutcome.failed(e));
      }
    }
    if (sent.isEmpty()) {
      return outcomes;
    }
    Map<String, Object> answer = agent.call(InsertAll.OP, new InsertAll(sent).toMap(), "inserting " + sent.size() + " "
        + sent.get(0).kind().word() + " probes (into " + sent.get(0).method().toPath()
        + (sent.size() > 1 ? " and " + (sent.size() - 1) + " more" : "") + ")");
    List<Map<String, Object>> results = Fields.mapsOr(answer, "results");
    for (int k = 0; k < sent.size(); k++) {
      ProbeSpec spec = sent.get(k);
      BatchOutcome<ProbeInfo> outcome;
      if (k >= results.size()) {
        outcome = BatchOutcome.failed(new SessionException(SessionException.Failure.FAILED,
            "inserting " + describe(spec) + " failed: the agent gave no result for it"));
      } else {
        Failure failure = Failure.ofItem(results.get(k));
        outcome = failure != null ? BatchOutcome.failed(new SessionException(
            SessionException.fromAgentCode(failure.code()), "inserting " + describe(spec) + " failed: " + failure.message()))
            : BatchOutcome.done(book(Inserted.fromMap(results.get(k)), spec, askedBy));
      }
      outcomes.set(positions.get(k), outcome);
    }
    return outcomes;
  }

  /** Removes a probe this session inserted. */
  RemovedProbe disable(long probeId) {
    ProbeInfo info = probes.get(probeId);
    if (info == null) {
      throw noProbe(probeId);
    }
    Removed answer = Removed.fromMap(agent.call(Remove.OP, new Remove(probeId).toMap(), "removing probe " + probeId));
    probes.remove(probeId);
    left(info);
    return new RemovedProbe(info.method(), answer);
  }

  /** As {@link TargetSession#disableAll}. */
  List<BatchOutcome<RemovedProbe>> disableAll(List<Long> probeIds) {
    List<BatchOutcome<RemovedProbe>> outcomes = new ArrayList<>();
    List<Long> sent = new ArrayList<>();
    for (long id : probeIds) {
      if (sent.contains(id)) {
        outcomes.add(BatchOutcome.failed(new SessionException(SessionException.Failure.BAD_INPUT,
            "probe " + id + " is listed more than once")));
      } else if (!probes.containsKey(id)) {
        outcomes.add(BatchOutcome.failed(noProbe(id)));
      } else {
        sent.add(id);
        outcomes.add(null);
      }
    }
    if (sent.isEmpty()) {
      return outcomes;
    }
    RemoveReply answer = RemoveReply.fromMap(agent.call(RemoveMany.OP, new RemoveMany(sent).toMap(),
        "removing probes " + sent));
    Map<Long, BatchOutcome<RemovedProbe>> byId = new LinkedHashMap<>();
    for (Removed r : answer.removed()) {
      ProbeInfo info = probes.remove(r.probeId());
      if (info != null) {
        left(info);
      }
      byId.put(r.probeId(), BatchOutcome.done(new RemovedProbe(info == null ? "" : info.method(), r)));
    }
    for (Failure f : answer.failures()) {
      byId.put(f.probeId(), BatchOutcome.failed(new SessionException(SessionException.fromAgentCode(f.code()),
          "removing probe " + f.probeId() + " failed: " + f.message())));
    }
    for (int i = 0; i < outcomes.size(); i++) {
      if (outcomes.get(i) == null) {
        long id = probeIds.get(i);
        outcomes.set(i, byId.getOrDefault(id, BatchOutcome.failed(new SessionException(SessionException.Failure.FAILED,
            "removing probe " + id + " failed: the agent gave no outcome for it"))));
      }
    }
    return outcomes;
  }

  /** The agent's ledger entries, each of this session's probes with its "askedBy". */
  List<Map<String, Object>> annotate(List<Map<String, Object>> ledger) {
    return withAskedBy(ledger, "probeId", id -> {
      ProbeInfo mine = probes.get(id);
      return mine == null ? null : mine.askedBy();
    });
  }

  /**
   * A ledger's entries (probes or watched sources, identified by {@code idField}), each with its
   * {@code "askedBy"} where {@code askedBy} knows it (null: another session's).
   */
  static List<Map<String, Object>> withAskedBy(List<Map<String, Object>> ledger, String idField,
      LongFunction<String> askedBy) {
    List<Map<String, Object>> entries = new ArrayList<>();
    for (Map<String, Object> e : ledger) {
      Map<String, Object> entry = new LinkedHashMap<>(e);
      String who = askedBy.apply(Fields.numberOr(e, idField, -1));
      if (who != null) {
        entry.put("askedBy", who);
      }
      entries.add(entry);
    }
    return entries;
  }

  private ProbeInfo book(Inserted inserted, ProbeSpec spec, String askedBy) {
    ProbeInfo info = new ProbeInfo(inserted.probeId(), inserted.method().toPath().toString(), spec.kind().word(),
        spec.callee() == null ? null : spec.callee().toPath().toString(), askedBy == null ? "unknown" : askedBy,
        System.currentTimeMillis(), inserted.retransformNanos());
    probes.put(info.probeId(), info);
    changed.compute(className(info), (c, span) -> new long[] {span == null ? info.sinceMillis() : span[0], Long.MAX_VALUE});
    return info;
  }

  /** A probe left its class: once the class has none, its wake ends {@link #WAKE_MILLIS} from now. */
  private void left(ProbeInfo info) {
    String cls = className(info);
    if (probes.values().stream().noneMatch(p -> className(p).equals(cls))) {
      changed.computeIfPresent(cls, (c, span) -> new long[] {span[0], System.currentTimeMillis() + WAKE_MILLIS});
    }
  }

  /**
   * Whether the JIT's work on class {@code className} at {@code atMillis} is the tool's wake: this session had a
   * probe in the class then, or took its last one out less than {@link #WAKE_MILLIS} before (HotSpot
   * deoptimises a class's compiled methods when its bytes change and compiles them again).
   */
  boolean changedByTool(String className, long atMillis) {
    long[] span = changed.get(className);
    return span != null && atMillis >= span[0] && atMillis <= span[1];
  }

  private static String className(ProbeInfo info) {
    return CodePaths.className(ResourcePath.parse(info.method()));
  }

  private SessionException noProbe(long probeId) {
    return new SessionException(SessionException.Failure.NOT_FOUND, "no probe " + probeId
        + " in this session (its probes: " + (probes.isEmpty() ? "none" : probes.keySet()) + ")");
  }

  private static String describe(ProbeSpec spec) {
    return "a " + spec.kind().word() + " probe into " + spec.method().toPath();
  }

  private static ProbeKind kind(String kindWord) {
    ProbeKind kind = ProbeKind.byWord(kindWord == null ? "" : kindWord);
    if (kind == null) {
      throw SessionException.badInput("unknown probe kind '" + kindWord + "'; one of "
          + Arrays.stream(ProbeKind.values()).map(ProbeKind::word).collect(Collectors.joining(", ")));
    }
    return kind;
  }

  private ProbeSpec notBusy(ProbeSpec spec) {
    String why = busy.apply(spec.method().className());
    if (why != null) {
      throw new BusyClassException(spec.method().className(), why, "not inserting " + describe(spec) + " now: " + why
          + "; " + BusyClassException.HARM);
    }
    return spec;
  }

  /** The insert request for a focus text, a kind word and a callee text: parsed here, once. */
  private static ProbeSpec spec(String focus, String kindWord, String callee) {
    ProbeKind kind = kind(kindWord);
    MethodRef method = MethodRef.fromPath(MethodFocus.parse(focus));
    boolean hasCallee = callee != null && !callee.isBlank();
    if (kind == ProbeKind.CALL_SITE && !hasCallee) {
      throw SessionException.badInput("a call_site probe needs a callee method (/Code/...)");
    }
    if (kind != ProbeKind.CALL_SITE && hasCallee) {
      throw SessionException.badInput("only call_site probes take a callee; " + kind.word() + " does not");
    }
    return new ProbeSpec(method, kind, hasCallee ? MethodRef.fromPath(MethodFocus.parse(callee)) : null);
  }
}
