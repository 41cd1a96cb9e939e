package dev.bottlenose.model;

/** The resource hierarchies of a running JVM; each has one root, written {@code /Name}. */
public enum Hierarchy {
  CODE("Code"),
  THREADS("Threads"),
  SYNC_OBJECTS("SyncObjects"),
  MEMORY("Memory"),
  IO("IO"),
  VM("VM"),
  PROCESS("Process"),
  MACHINE("Machine");

  private final String rootName;

  Hierarchy(String rootName) {
    this.rootName = rootName;
  }

  /** The name of the root as written in paths, e.g. {@code SyncObjects}. */
  public String rootName() {
    return rootName;
  }

  /** The root resource path of this hierarchy, e.g. {@code /Code}. */
  public ResourcePath root() {
    return ResourcePath.of(this);
  }

  /** The hierarchy whose root is written {@code name} (exact case), or null. */
  public static Hierarchy byRootName(String name) {
    for (Hierarchy h : values()) {
      if (h.rootName.equals(name)) {
        return h;
      }
    }
    return null;
  }
}
