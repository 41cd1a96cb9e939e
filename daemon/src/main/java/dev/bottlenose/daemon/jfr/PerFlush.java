package dev.bottlenose.daemon.jfr;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What a reader works out from one of JFR's constant objects (a thread, a stack trace), kept by the object's identity
 * until the next flush. The parser hands out one object per constant of a chunk, so the events of a flush name the
 * same few threads and stacks again and again; working each out once spares the field lookups ({@code
 * RecordedObject.getValue} searches an event type's fields by name at every call) and the strings built from them
 * that took most of the reader's CPU. Cleared at each flush, so no chunk's objects are kept past it, and bounded.
 * An object the parser hands out again as a new instance is merely worked out again. Used by the reading thread only.
 */
final class PerFlush<K, V> {
  static final int MAX_ENTRIES = 8_192;
  private final Map<K, V> known = new IdentityHashMap<>();
  private final Function<K, V> work;

  PerFlush(Function<K, V> work) {
    this.work = work;
  }

  /** What {@code key} gives, worked out now unless this flush has seen it; {@code key} must not be null. */
  V get(K key) {
    V v = known.get(key);
    if (v == null) {
      v = work.apply(key);
      if (known.size() >= MAX_ENTRIES) {
        known.clear();
      }
      known.put(key, v);
    }
    return v;
  }

  void clear() {
    known.clear();
  }
}
