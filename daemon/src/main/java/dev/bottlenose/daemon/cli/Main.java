package dev.bottlenose.daemon.cli;

/** SKELETON command-line entry (to be written). */
public final class Main {
  public static void main(String[] args) {
    System.err.println("bottlenose: not built yet");
    System.exit(2);
  }

  private Main() {}
}
