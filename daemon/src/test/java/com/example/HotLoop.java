package com.example;

/** A method of a program, outside Bottlenose's packages, hot enough for the JIT to compile. */
public final class HotLoop {
  private HotLoop() {
  }

  public static long step(long i) {
    return (i * 31) ^ (i >>> 3);
  }
}
