package dev.bottlenose.instrumentation;

import dev.bottlenose.probe.Probes;
import java.util.BitSet;

/** Hands out and takes back the slots of the probe runtime; a slot is zeroed when handed out. */
final class SlotAllocator {
  private final BitSet used = new BitSet(Probes.SLOTS);

  /** A free slot, zeroed, or -1 when all are in use. */
  synchronized int allocate() {
    int slot = used.nextClearBit(0);
    if (slot >= Probes.SLOTS) {
      return -1;
    }
    used.set(slot);
    Probes.reset(slot);
    return slot;
  }

  synchronized void free(int slot) {
    if (slot >= 0) {
      used.clear(slot);
    }
  }

  synchronized int inUse() {
    return used.cardinality();
  }
}
