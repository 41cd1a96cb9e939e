package dev.bottlenose.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.probe.Probes;
import org.junit.jupiter.api.Test;

class SlotAllocatorTest {
  @Test
  void aFreedSlotIsReusedOnlyAfterEveryOtherFreeSlot() {
    SlotAllocator slots = new SlotAllocator();
    int first = slots.allocate();
    slots.free(first);
    int second = slots.allocate();
    assertThat(second).isNotEqualTo(first);
    for (int i = 2; i < Probes.SLOTS; i++) {
      assertThat(slots.allocate()).isNotEqualTo(first);
    }
    assertThat(slots.allocate()).isEqualTo(first);
    assertThat(slots.allocate()).isEqualTo(-1);
    assertThat(slots.inUse()).isEqualTo(Probes.SLOTS);
  }
}
