package dev.bottlenose.instrumentation;

import java.util.ArrayList;
import java.util.List;

/**
 * The allocation sites of one allocation probe, each with its own slot. A site is numbered by its
 * position among the creation instructions of the method, so weaving the same original bytes again
 * gives every site the slot it had before.
 */
final class AllocationSites {
  /** Element size meaning: an object whose shallow size the runtime learns. */
  static final int OBJECT = 0;
  /** Element size meaning: only counted (no size known). */
  static final int COUNT_ONLY = -1;
  /** Bytes per array element holding a reference (compressed oops assumed). */
  static final int REFERENCE_SIZE = 4;
  /** Bytes of an array header assumed when estimating array sizes. */
  static final int ARRAY_HEADER = 16;

  /** One creation site: its slot, the created type ({@code com.acme.Point}, {@code int[]}) and element size. */
  record Site(int index, int slot, String type, int elementSize) {}

  private final SlotAllocator slots;
  private final List<Site> sites = new ArrayList<>();

  AllocationSites(SlotAllocator slots) {
    this.slots = slots;
  }

  /** The slot of site {@code index} creating {@code type}; allocates one the first time. */
  synchronized int slot(int index, String type, int elementSize) {
    for (Site s : sites) {
      if (s.index() == index && s.type().equals(type) && s.elementSize() == elementSize) {
        return s.slot();
      }
    }
    int slot = slots.allocate();
    if (slot < 0) {
      throw new IllegalStateException("no probe slot left for allocation site " + index + " (" + type + ")");
    }
    sites.add(new Site(index, slot, type, elementSize));
    return slot;
  }

  synchronized List<Site> all() {
    return List.copyOf(sites);
  }
}
