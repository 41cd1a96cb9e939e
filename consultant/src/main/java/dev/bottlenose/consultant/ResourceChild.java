package dev.bottlenose.consultant;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;

/**
 * A resource one step more specific than {@code parent} in its hierarchy, and how: {@code contains}
 * (package → class → method, pool → thread, type → site, …) or {@code calls} (a callee in the call graph).
 * {@code samples} is how many of the target's recent execution samples had the child on the stack (for a
 * callee: went through the call), {@code ioWaits} how many of its recent slow reads and writes did,
 * {@code compilations} how many of the JIT's recent compilations were of its code, and {@code syncWaits} how
 * many of its recent contended monitor entries, monitor waits and parks had it on the stack, and {@code loads} how
 * many of the classes the program recently defined were counted at it (at the loader's class that defined them,
 * or at the class itself for the JDK's loaders: daemon/PROTOCOL.md, the {@code load} graph); each is {@link
 * #UNKNOWN} when nothing was recorded to tell, {@link #NOT_YET} while the daemons record them but have too few
 * so far to tell (the first seconds after the attach). For an allocated type ({@code /Memory/<type>}),
 * {@code allocationSamples} is how many of JFR's allocation samples since the attach were of it and
 * {@code allocatedBytes} the bytes they stand for; {@link #UNKNOWN} elsewhere.
 */
public record ResourceChild(ResourcePath parent, ResourcePath child, String relation, long samples, long ioWaits,
    long compilations, long syncWaits, long loads, long allocationSamples, long allocatedBytes) {
  public static final String CONTAINS = "contains";
  public static final String CALLS = "calls";
  public static final long UNKNOWN = -1;
  public static final long NOT_YET = -2;

  public ResourceChild(ResourcePath parent, ResourcePath child, String relation) {
    this(parent, child, relation, UNKNOWN, UNKNOWN);
  }

  public ResourceChild(ResourcePath parent, ResourcePath child, String relation, long samples) {
    this(parent, child, relation, samples, UNKNOWN);
  }

  public ResourceChild(ResourcePath parent, ResourcePath child, String relation, long samples, long ioWaits) {
    this(parent, child, relation, samples, ioWaits, UNKNOWN);
  }

  public ResourceChild(ResourcePath parent, ResourcePath child, String relation, long samples, long ioWaits,
      long compilations) {
    this(parent, child, relation, samples, ioWaits, compilations, UNKNOWN);
  }

  public ResourceChild(ResourcePath parent, ResourcePath child, String relation, long samples, long ioWaits,
      long compilations, long syncWaits) {
    this(parent, child, relation, samples, ioWaits, compilations, syncWaits, UNKNOWN);
  }

  public ResourceChild(ResourcePath parent, ResourcePath child, String relation, long samples, long ioWaits,
      long compilations, long syncWaits, long loads) {
    this(parent, child, relation, samples, ioWaits, compilations, syncWaits, loads, UNKNOWN, UNKNOWN);
  }

  public Hierarchy hierarchy() {
    return parent.hierarchy();
  }

  /** True when the program was sampled and never ran this child's code. */
  public boolean unsampled() {
    return samples == 0;
  }

  /** True when the program's slow reads and writes were recorded and none had this child's code on the stack. */
  public boolean neverWaitedOnIo() {
    return ioWaits == 0;
  }

  /** True when the program's contended waits were recorded and none had this child's code on the stack. */
  public boolean neverWaitedOnSync() {
    return syncWaits == 0;
  }

  /** True when the classes the program defined were recorded and none was counted at this child. */
  public boolean neverLoaded() {
    return loads == 0;
  }

  /** True when the JIT's recent compilations were recorded and none was of this child's code. */
  public boolean neverCompiled() {
    return compilations == 0;
  }
}
