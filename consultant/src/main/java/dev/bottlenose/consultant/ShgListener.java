package dev.bottlenose.consultant;

/** Receives every change of a search-history graph, in order, on the thread that made it. */
@FunctionalInterface
public interface ShgListener {
  void onEvent(ShgEvent event);
}
