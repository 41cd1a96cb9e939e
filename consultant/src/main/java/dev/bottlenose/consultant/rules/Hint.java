package dev.bottlenose.consultant.rules;

import dev.bottlenose.model.ResourcePath;

/**
 * A resource a cheap always-on source marked as promising (not API): Deep Start jumps to it, for the nodes of
 * {@code hypothesisId} only, or of every hypothesis when it is null.
 */
public record Hint(ResourcePath path, double weight, String source, String hypothesisId) {
  public Hint(ResourcePath path, double weight, String source) {
    this(path, weight, source, null);
  }
}
