package dev.bottlenose.instrumentation;

import java.util.ArrayList;
import java.util.List;

/**
 * The probes one batch inserts into or removes from one class (every loaded class of that name), with their
 * positions in the batch's request, and what the retransformation did: its time per probe, or its failure.
 */
final class ClassBatch {
  final String className;
  final String internalName;
  List<Class<?>> classes = List.of();
  final List<ActiveProbe> probes = new ArrayList<>();
  final List<Integer> positions = new ArrayList<>();
  long nanosPerProbe;
  ProbeException failure;

  ClassBatch(String className) {
    this.className = className;
    this.internalName = className.replace('.', '/');
  }

  void add(int position, ActiveProbe probe) {
    positions.add(position);
    probes.add(probe);
  }
}
