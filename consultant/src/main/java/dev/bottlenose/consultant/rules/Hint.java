package dev.bottlenose.consultant.rules;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;

/** A resource a cheap always-on source marked as promising (not API): Deep Start jumps to it. */
public record Hint(ResourcePath path, double weight, String source) {

  /** The {@code /Code} package the hinted resource lies in, or null if it is not below a package of {@code /Code}. */
  public ResourcePath codePackage() {
    return path.hierarchy() == Hierarchy.CODE && !path.isRoot() ? ResourcePath.of(Hierarchy.CODE, path.segments().get(0)) : null;
  }
}
