package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DiscoveryEventsTest {
  @Test
  void threadsThatEndedAreDroppedWithWhatWasHeldForThem() {
    Map<Long, Long> cpu = new HashMap<>(Map.of(11L, 5L, 12L, 7L, 13L, -1L));
    Map<Long, ArrayDeque<String>> held = new HashMap<>();
    held.put(12L, new ArrayDeque<>(java.util.List.of("read")));
    held.put(14L, new ArrayDeque<>(java.util.List.of("write")));
    Set<Long> alive = Set.of(11L, 13L);

    DiscoveryEvents.dropEnded(cpu, held, tid -> alive.contains(tid) ? 100 : -1);

    assertThat(cpu).as("a thread still running stays, whatever its last reading").containsOnlyKeys(11L, 13L);
    assertThat(held).as("held stacks go with their thread").isEmpty();
  }
}
