package dev.bottlenose.instrumentation;

import dev.bottlenose.probe.Probes;
import java.util.Map;
import java.util.TreeMap;

/** Turns the runtime's slots into {@link ProbeReading}s and execution counts. */
final class Readings {
  private Readings() {}

  static ProbeReading read(ActiveProbe p) {
    if (p.kind != ProbeKind.ALLOCATION) {
      return new ProbeReading(p.id, p.kind, Probes.readCount(p.slot), Probes.readNanos(p.slot), 0, Map.of(), Map.of());
    }
    Map<String, Long> countByType = new TreeMap<>();
    Map<String, Long> bytesByType = new TreeMap<>();
    long count = 0;
    long bytes = 0;
    for (AllocationSites.Site site : p.sites.all()) {
      long created = Probes.readCount(site.slot());
      long siteBytes = bytes(site, created);
      count += created;
      bytes += siteBytes;
      countByType.merge(site.type(), created, Long::sum);
      bytesByType.merge(site.type(), siteBytes, Long::sum);
    }
    return new ProbeReading(p.id, p.kind, count, 0, bytes, countByType, bytesByType);
  }

  /** Probe executions so far: entries, exits, calls timed (exclusive timers: also the inner calls). */
  static long executions(ActiveProbe p) {
    if (p.kind == ProbeKind.ALLOCATION) {
      long sum = 0;
      for (AllocationSites.Site s : p.sites.all()) {
        sum += Probes.readCount(s.slot());
      }
      return sum;
    }
    long executions = Probes.readCount(p.slot);
    return p.kind == ProbeKind.WALL_EXCLUSIVE ? executions + Probes.readExtra(p.slot) : executions;
  }

  private static long bytes(AllocationSites.Site site, long created) {
    if (site.elementSize() == AllocationSites.OBJECT) {
      return created * Probes.readSize(site.slot());
    }
    if (site.elementSize() == AllocationSites.COUNT_ONLY) {
      return 0;
    }
    return AllocationSites.ARRAY_HEADER * created + Probes.readExtra(site.slot()) * site.elementSize();
  }
}
