package dev.bottlenose.consultant;

import dev.bottlenose.model.ResourcePath;
import java.util.List;

/**
 * What the search asks about the program's resources: the children of a resource along its hierarchy
 * (for a {@code /Code} method: its callees). Implemented over the daemons' hierarchies; {@link TreeOracle}
 * implements it over a {@link dev.bottlenose.model.ResourceTree}.
 */
@FunctionalInterface
public interface ResourceOracle {
  List<ResourceChild> children(ResourcePath path);

  /**
   * The children of {@code path} as the program's recent behaviour has them now (what it sampled and recorded
   * since they were first listed), where {@link #children} may answer what it listed before.
   */
  default List<ResourceChild> childrenNow(ResourcePath path) {
    return children(path);
  }
}
