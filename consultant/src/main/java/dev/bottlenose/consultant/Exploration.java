package dev.bottlenose.consultant;

import dev.bottlenose.consultant.rules.RuleSession;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a search can go: the children of the resources in a promising node's focus, looked up from the
 * {@link ResourceOracle} and handed to the rules (which propose the where-refinements), and the resources
 * that what the daemons recorded rules out for a hypothesis ({@link HypothesisCatalog#ruledOutBy}). A path
 * is listed again every {@value #RELIST_STEPS} steps while its node is promising: code that starts waiting
 * or running later (a program that moves on to another phase) becomes a child, and a resource ruled out by
 * what had been recorded when it was first listed is ruled in again once it has been seen at work.
 */
final class Exploration {
  private final ResourceOracle oracle;
  private final HypothesisCatalog catalog;
  private final RuleSession rules;
  static final long RELIST_STEPS = 10;
  private final Set<ResourcePath> explored = new HashSet<>();
  /** Per explored path, the step at which it was last listed. */
  private final Map<ResourcePath, Long> listedAt = new HashMap<>();
  /** Per path not explored yet, the step at which the oracle listed no children for it. */
  private final Map<ResourcePath, Long> listedEmptyAt = new HashMap<>();
  /** Per hypothesis, the resources ruled out for it. */
  private final Map<String, Set<ResourcePath>> ruledOut = new HashMap<>();
  /** Per explored path listed before enough was recorded of its children, the step it was first listed at. */
  private final Map<ResourcePath, Long> unrecordedSince = new HashMap<>();
  /** Per explored path, its children as last listed. */
  private final Map<ResourcePath, Listing> childrenOf = new HashMap<>();

  Exploration(ResourceOracle oracle, HypothesisCatalog catalog, RuleSession rules) {
    this.oracle = oracle;
    this.catalog = catalog;
    this.rules = rules;
  }

  /**
   * Adds the children of the focus along each hierarchy {@code h} refines; true if any were new. A path
   * listed without children is asked once more at a later {@code step} (the answer of a busy daemon may
   * have been lost) and then counts as a leaf, so a daemon that keeps timing out holds up at most two
   * steps per path.
   */
  boolean explore(Focus focus, Hypothesis h, long step) {
    boolean changed = false;
    for (Hierarchy hierarchy : h.refineAlong()) {
      ResourcePath path = focus.get(hierarchy);
      if (explored.contains(path)) {
        if (step - listedAt.getOrDefault(path, step) >= relistAfter(path, step)) {
          changed |= relist(path, step);
        }
        continue;
      }
      Long emptyAt = listedEmptyAt.get(path);
      if (emptyAt != null && emptyAt == step) {
        continue;
      }
      List<ResourceChild> children = oracle.children(path);
      if (children.isEmpty() && emptyAt == null) {
        listedEmptyAt.put(path, step);
        continue;
      }
      explored.add(path);
      listedAt.put(path, step);
      childrenOf.put(path, new Listing(children));
      if (unrecorded(children)) {
        unrecordedSince.put(path, step);
      }
      boolean onlyOneJvm = (hierarchy == Hierarchy.PROCESS || hierarchy == Hierarchy.MACHINE) && children.size() < 2;
      if (!onlyOneJvm) {
        children.forEach(rules::add);
        List<Hypothesis> hypotheses = catalog.all();
        for (ResourceChild c : children) {
          hypotheses.stream().filter(each -> catalog.ruledOutBy(each, c))
              .forEach(each -> ruledOut.computeIfAbsent(each.id(), k -> new HashSet<>()).add(c.child()));
        }
        changed |= !children.isEmpty();
      }
    }
    return changed;
  }

  /** Lists an explored path again: its new children go to the rules, and every child is ruled out or in anew. */
  private boolean relist(ResourcePath path, long step) {
    listedAt.put(path, step);
    List<ResourceChild> now = oracle.childrenNow(path);
    if (now.isEmpty()) {
      return false;
    }
    Set<ResourcePath> before = new HashSet<>();
    Listing was = childrenOf.get(path);
    if (was != null) {
      before.addAll(was.byChild.keySet());
    }
    childrenOf.put(path, new Listing(now));
    if (!unrecorded(now)) {
      unrecordedSince.remove(path);
    }
    boolean changed = false;
    boolean onlyOneJvm = (path.hierarchy() == Hierarchy.PROCESS || path.hierarchy() == Hierarchy.MACHINE) && now.size() < 2;
    for (ResourceChild c : now) {
      if (!before.contains(c.child()) && !onlyOneJvm) {
        rules.add(c);
        changed = true;
      }
      for (Hypothesis each : catalog.all()) {
        Set<ResourcePath> out = ruledOut.computeIfAbsent(each.id(), k -> new HashSet<>());
        if (catalog.ruledOutBy(each, c)) {
          out.add(c.child());
        } else {
          changed |= out.remove(c.child());
        }
      }
    }
    return changed;
  }

  /**
   * Steps until an explored path is listed again: {@link #RELIST_STEPS}, or 1 while the daemons have too few
   * execution samples to tell about its children ({@link ResourceChild#NOT_YET}: the first listing of a node
   * refined before its verdict comes a second or two after the attach), for at most {@link #RELIST_STEPS} steps.
   */
  private long relistAfter(ResourcePath path, long step) {
    return awaitingRecord(path, step) ? 1 : RELIST_STEPS;
  }

  /** How many children {@code path} had when it was last listed; 0 when it was not. */
  int listed(ResourcePath path) {
    Listing l = childrenOf.get(path);
    return l == null ? 0 : l.children.size();
  }

  /**
   * Whether {@code path}'s children were first listed less than {@link #RELIST_STEPS} steps before {@code step} and
   * the daemons have had too few execution samples since to tell: the window in which it is listed again every step.
   */
  boolean awaitingRecord(ResourcePath path, long step) {
    Long since = unrecordedSince.get(path);
    return since != null && step - since < RELIST_STEPS;
  }

  /**
   * Whether a listing came while the daemons had too few execution samples to tell about the children. Only the
   * samples: every busy program has enough of them within seconds, while slow I/O, contended waits or
   * compilations may never reach their minimum on a program that does none, and each listing asks the agent in
   * the target for the children.
   */
  private static boolean unrecorded(List<ResourceChild> children) {
    return children.stream().anyMatch(c -> c.samples() == ResourceChild.NOT_YET);
  }

  /**
   * Whether {@code child} of {@code parent} was listed while what could rule it out for {@code h} was recorded too
   * little to tell ({@link HypothesisCatalog#notYetRecorded}); false for a path not listed as a child (a hinted
   * resource).
   */
  boolean notYetRecorded(Hypothesis h, ResourcePath parent, ResourcePath child) {
    Listing l = childrenOf.get(parent);
    ResourceChild c = l == null ? null : l.byChild.get(child);
    return c != null && catalog.notYetRecorded(h, c);
  }

  /**
   * The largest share of {@code parent}'s recorded events for {@code h} ({@link HypothesisCatalog#events}) that
   * {@code child} can hold, at about 97.5% confidence: {@code (n + 2√n + 2) / N} for its {@code n} of {@code N}
   * (a Poisson count's upper bound). {@code N} is the sum over the siblings for compilations, which partition
   * their parent's; for stacks, where one sample has a package, its classes and their callers on it at once,
   * it is the largest sibling's count, which is at most the parent's, so the bound only grows. For a hypothesis
   * that weighs allocated bytes ({@link HypothesisCatalog#weighsAllocatedBytes}) at an allocated type, its share
   * of the bytes ({@link #bytesShareAtMost}). 1 when nothing was recorded to tell.
   */
  double shareAtMost(Hypothesis h, ResourcePath parent, ResourcePath child) {
    Listing l = childrenOf.get(parent);
    ResourceChild own = l == null ? null : l.byChild.get(child);
    if (own != null && catalog.weighsAllocatedBytes(h) && own.allocatedBytes() >= 0) {
      return bytesShareAtMost(own, l.allocations(own.relation()));
    }
    if (own == null || catalog.events(h, own) < 0) {
      return 1;
    }
    long total = l.eventsTotal(h, own.relation());
    long n = catalog.events(h, own);
    return total <= 0 ? 1 : Math.min(1, (n + 2 * Math.sqrt(n) + 2) / total);
  }

  /**
   * At most what share of the bytes its siblings were allocated an allocated type {@code own} was: its sampled
   * bytes {@code w} of all of theirs {@code W} (the types partition the allocations), as {@code (w (1 + 2 / sqrt(n))
   * + 2 W / N) / W} with {@code n} its allocation samples and {@code N} theirs: the relative error of a sum of
   * {@code n} samples, and two samples of the mean size for a type sampled little or not yet ({@code allocated}: the
   * siblings' {@code W} and {@code N}). 1 when nothing was sampled.
   */
  private static double bytesShareAtMost(ResourceChild own, long[] allocated) {
    long bytes = allocated[0];
    long samples = allocated[1];
    if (bytes <= 0 || samples <= 0) {
      return 1;
    }
    long n = Math.max(0, own.allocationSamples());
    double w = Math.max(0, own.allocatedBytes());
    double spread = n == 0 ? 0 : w * 2 / Math.sqrt(n);
    return Math.min(1, (w + spread + 2.0 * bytes / samples) / bytes);
  }

  /** Whether what the daemons recorded rules {@code path} out for hypothesis {@code hypothesisId}. */
  boolean isRuledOut(String hypothesisId, ResourcePath path) {
    return ruledOut.getOrDefault(hypothesisId, Set.of()).contains(path);
  }

  /**
   * A path's children as listed, indexed by path, with the sums over them that {@link #shareAtMost} divides by,
   * each made once per listing: every step weighs again the refinements it refused, a few per child of each
   * listed path, and a package lists hundreds of children.
   */
  private final class Listing {
    final List<ResourceChild> children;
    final Map<ResourcePath, ResourceChild> byChild = new HashMap<>();
    private final Map<String, Long> totals = new HashMap<>();
    private final Map<String, long[]> allocations = new HashMap<>();

    Listing(List<ResourceChild> children) {
      this.children = List.copyOf(children);
      for (ResourceChild c : this.children) {
        byChild.putIfAbsent(c.child(), c);
      }
    }

    /**
     * The recorded events of {@code h} of the children in {@code relation}: their sum where the events partition
     * the parent's (compilations, classes defined), else the largest child's (a sample has many frames).
     */
    long eventsTotal(Hypothesis h, String relation) {
      return totals.computeIfAbsent(h.id() + '\n' + relation, k -> {
        boolean partition = catalog.eventsPartition(h) && relation.equals(ResourceChild.CONTAINS);
        long total = 0;
        for (ResourceChild c : children) {
          long n = catalog.events(h, c);
          if (c.relation().equals(relation) && n >= 0) {
            total = partition ? total + n : Math.max(total, n);
          }
        }
        return total;
      });
    }

    /** The sampled bytes and the allocation samples of the children in {@code relation}, summed. */
    long[] allocations(String relation) {
      return allocations.computeIfAbsent(relation, k -> {
        long[] sum = new long[2];
        for (ResourceChild c : children) {
          if (c.relation().equals(relation) && c.allocatedBytes() >= 0 && c.allocationSamples() >= 0) {
            sum[0] += c.allocatedBytes();
            sum[1] += c.allocationSamples();
          }
        }
        return sum;
      });
    }
  }
}
