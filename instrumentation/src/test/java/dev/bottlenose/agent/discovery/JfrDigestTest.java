package dev.bottlenose.agent.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.wire.Jfr;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JfrDigestTest {
  private final ResourceTree tree = new ResourceTree();
  private final SyncObjects sync = new SyncObjects(tree);
  private final MonitorWaits waits = new MonitorWaits();
  private final JfrDigest digest = new JfrDigest(sync, new MemorySites(tree), new IoDiscovery(tree), new VmDiscovery(tree),
      waits, new VirtualThreads(tree));

  private Map<String, String> attributes(String path) {
    return tree.get(ResourcePath.parse(path)).attributes();
  }

  @Test
  void aSummedTupleCountsEveryEventItStandsFor() {
    Map<String, List<List<?>>> kinds = new LinkedHashMap<>();
    kinds.put(Jfr.LOCKS, List.of(List.of("java.util.concurrent.locks.ReentrantLock$NonfairSync", 3_000_000L, 12L)));
    kinds.put(Jfr.MONITORS, List.of(List.of("com.acme.Cache", 500_000L, "com.acme.Cache", "get", "()V", 2L)));
    assertThat(digest.apply(new Jfr(kinds))).isEqualTo(2);

    assertThat(attributes("/SyncObjects/locks/java.util.concurrent.locks.ReentrantLock$NonfairSync"))
        .containsEntry("contended", "12").containsEntry("contendedNanos", "3000000");
    assertThat(attributes("/SyncObjects/monitors/com.acme.Cache"))
        .containsEntry("contended", "2").containsEntry("contendedNanos", "500000");
    assertThat(waits.nanos("com.acme.Cache", "get", "()V")).isEqualTo(500_000L);
  }

  @Test
  void aTupleWithoutACountIsOneEvent() {
    Map<String, List<List<?>>> kinds = new LinkedHashMap<>();
    kinds.put(Jfr.LOCKS, List.of(List.of("com.acme.Gate", 1_000L), List.of("com.acme.Gate", 2_000L)));
    digest.apply(new Jfr(kinds));
    assertThat(attributes("/SyncObjects/locks/com.acme.Gate")).containsEntry("contended", "2")
        .containsEntry("contendedNanos", "3000");
  }

  @Test
  void summedAllocationSamplesAndCompilationsCountEverySampleAndCompilation() {
    Map<String, List<List<?>>> kinds = new LinkedHashMap<>();
    kinds.put(Jfr.ALLOCATIONS, List.of(List.of("com.acme.Tally", "com.acme.Counter.count", 4_096_000L, 150L),
        List.of("com.acme.Tally", "com.acme.Counter.count", 1_000L)));
    kinds.put(Jfr.COMPILATIONS, List.of(List.of(4, "com.acme.Counter.count(J)V", 9_000_000L, 3L)));
    assertThat(digest.apply(new Jfr(kinds))).isEqualTo(3);

    assertThat(attributes("/Memory/com.acme.Tally/com.acme.Counter.count")).containsEntry("samples", "151")
        .containsEntry("sampledBytes", "4097000");
    assertThat(attributes("/VM/JIT/c2/com.acme.Counter.count(J)V")).containsEntry("count", "3")
        .containsEntry("nanos", "9000000");
  }
}
