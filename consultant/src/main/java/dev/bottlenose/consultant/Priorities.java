package dev.bottlenose.consultant;

import dev.bottlenose.consultant.rules.CodeOnly;
import dev.bottlenose.consultant.rules.Refinement;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The order in which refinements are tested (a lower key first): why before where by the settings
 * {@code priority.why} and {@code priority.where}; along a hypothesis's hierarchies in its order (the lock
 * before the code); down a hierarchy before across it; application code before platform code; and towards
 * what a cheap always-on source hinted at.
 */
final class Priorities {
  /** Added to a where-refinement's key per place of its hierarchy in its hypothesis's order: the lock before the code. */
  private static final double HIERARCHY_STEP = 0.1;
  /** Taken off a where-refinement's key per level it reaches on its hierarchy: the search walks down before it widens. */
  private static final double DEPTH_STEP = 0.01;

  private final Settings settings;
  private final HypothesisCatalog catalog;
  private final Map<ResourcePath, Double> hints = new LinkedHashMap<>();

  Priorities(Settings settings, HypothesisCatalog catalog) {
    this.settings = settings;
    this.catalog = catalog;
  }

  /** {@code path} is promising with a weight in [0, 1]; the highest weight per path counts. */
  void hint(ResourcePath path, double weight) {
    hints.merge(path, weight, Math::max);
  }

  /** The priority key of the node a refinement proposes. */
  double of(Refinement r) {
    double base = settings.number(r.axis() == Axis.WHY ? "priority.why" : "priority.where");
    if (r.along() == null) {
      return base;
    }
    ResourcePath refined = r.focus().get(r.along());
    base += HIERARCHY_STEP * Math.max(0, catalog.get(r.hypothesisId()).refineAlong().indexOf(r.along())) - DEPTH_STEP * refined.depth();
    double weight = 0;
    for (Map.Entry<ResourcePath, Double> hint : hints.entrySet()) {
      if (refined.contains(hint.getKey())) {
        weight = Math.max(weight, hint.getValue());
      }
    }
    if (refined.hierarchy() == Hierarchy.CODE && !CodeOnly.inApplicationCode(refined)) {
      base += settings.number("priority.platform_code");
    }
    return base - settings.number("priority.hint_bonus") * weight;
  }
}
