package dev.bottlenose.instrumentation;

import dev.bottlenose.probe.Probes;
import java.util.BitSet;

/**
 * Hands out and takes back the slots of the probe runtime; a slot is zeroed when handed out. Slots are handed
 * out round-robin, so a freed slot is reused as late as possible: a thread can still run a removed probe's
 * woven code for a while (e.g. one that was waiting for the monitor of a synchronized method) and must not
 * count into the slot of a newer probe.
 */
final class SlotAllocator {
  private final BitSet used = new BitSet(Probes.SLOTS);
  private int next;

  /** A free slot, zeroed, or -1 when all are in use. */
  synchronized int allocate() {
    int slot = used.nextClearBit(next);
    if (slot >= Probes.SLOTS) {
      slot = used.nextClearBit(0);
    }
    if (slot >= Probes.SLOTS) {
      return -1;
    }
    next = slot + 1;
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
