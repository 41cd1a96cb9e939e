package dev.bottlenose.instrumentation;

/** What a probe woven into one method measures. */
public enum ProbeKind {
  /** Calls of the method. */
  CALL_COUNT,
  /** Wall time from entry to exit (normal or exceptional), outermost activation only when recursive. */
  WALL_INCLUSIVE,
  /** Wall time in the method's own code: inclusive time minus time spent in the calls it makes. */
  WALL_EXCLUSIVE,
  /** Calls made from this method to one callee (call-site probes), and the time spent in them. */
  CALL_SITE,
  /** Objects and arrays created in the method: count, and bytes where known, per created type. */
  ALLOCATION,
  /** {@code monitorenter} in the method (synchronized blocks): entries and time blocked acquiring. */
  MONITOR;

  /** The lower-case word used on the command line and the wire, e.g. {@code wall_inclusive}. */
  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The kind written {@code word} (any case), or null. */
  public static ProbeKind byWord(String word) {
    for (ProbeKind k : values()) {
      if (k.name().equalsIgnoreCase(word)) {
        return k;
      }
    }
    return null;
  }
}
