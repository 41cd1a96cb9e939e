package dev.bottlenose.daemon.attach;

/** One local JVM: pid, what it runs (main class or jar, with arguments), its Java version and owner. */
public record JvmInfo(long pid, String displayName, String javaVersion, String owner) {

  /** The main class or jar without its arguments. */
  public String mainClass() {
    int space = displayName.indexOf(' ');
    return space < 0 ? displayName : displayName.substring(0, space);
  }
}
