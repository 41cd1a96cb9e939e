package dev.bottlenose.daemon.session;

import dev.bottlenose.agent.wire.SourceSpec;
import java.util.List;

/**
 * What a metric's plan needs of the target ({@link PlanInserter}, {@link MetricSession}): its resources, probes in
 * and out, sources watched and unwatched. {@link TargetSession} is one; the metric code does not call back into
 * the session for anything else.
 */
interface PlanTarget {
  /** As {@link TargetSession#resources}. */
  List<ResourceEntry> resources(String path, int depth);

  /** As {@link TargetSession#enable}. */
  ProbeInfo enable(String focus, String kindWord, String callee, String askedBy);

  /** As {@link TargetSession#enableAll}. */
  List<BatchOutcome<ProbeInfo>> enableAll(List<String> foci, String kindWord, String askedBy);

  /** As {@link TargetSession#disableAll}. */
  List<BatchOutcome<RemovedProbe>> disableAll(List<Long> probeIds);

  /** As {@link TargetSession#watch(SourceSpec, String)}. */
  SourceInfo watch(SourceSpec source, String askedBy);

  /** As {@link TargetSession#unwatch}. */
  SourceInfo unwatch(long sourceId);
}
