package dev.bottlenose.web.render;

import dev.bottlenose.consultant.SavedSearch.Stacks.Frame;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.List;

/**
 * A tree of sampled stacks cut down to the stacks that pass through some code (a package, a class or a method):
 * a finding's flame graph shows only the samples its place took part in, so that what it calls and who calls it
 * are not lost among the rest of the program.
 *
 * <p>A frame in the code keeps its whole subtree (every sample through it passed through the code). A frame with no
 * such frame at or above it keeps only what its children kept, and none of its own {@code self} (those samples ended
 * before reaching the code); under recursion the outermost frame in the code counts its samples, the inner ones
 * being inside its subtree already. Frames left with no sample are dropped, so a code no stack reaches leaves an
 * empty tree. Callees the tree did not keep (its frames are the most sampled ones) are not known to reach the code,
 * so they are dropped too.
 */
public final class StacksThrough {
  private StacksThrough() {}

  /** The kept stacks: all their samples ({@code frames}' roots' totals) and the frames, each after its parent. */
  public record Kept(long samples, List<Frame> frames) {
    public Kept {
      frames = List.copyOf(frames);
    }
  }

  /**
   * The stacks of {@code frames} (a tree, each frame after its parent, a root's parent -1) that pass through
   * {@code code}, a {@code /Code} path below the root.
   */
  public static Kept of(List<Frame> frames, ResourcePath code) {
    if (code.hierarchy() != Hierarchy.CODE || code.isRoot()) {
      throw new IllegalArgumentException("not a package, class or method: " + code);
    }
    int n = frames.size();
    boolean[] inCode = new boolean[n];
    for (int i = 0; i < n; i++) {
      int parent = frames.get(i).parent();
      inCode[i] = passes(frames.get(i).method(), code) || parent >= 0 && inCode[parent];
    }
    long[] kept = new long[n];
    for (int i = n - 1; i >= 0; i--) {
      Frame f = frames.get(i);
      if (inCode[i]) {
        kept[i] = f.total();
      }
      if (f.parent() >= 0 && !inCode[f.parent()]) {
        kept[f.parent()] += kept[i];
      }
    }
    List<Frame> out = new ArrayList<>();
    int[] index = new int[n];
    long samples = 0;
    for (int i = 0; i < n; i++) {
      Frame f = frames.get(i);
      if (kept[i] <= 0) {
        continue;
      }
      index[i] = out.size();
      out.add(new Frame(f.parent() < 0 ? -1 : index[f.parent()], f.method(), kept[i], inCode[i] ? f.self() : 0));
      if (f.parent() < 0) {
        samples += kept[i];
      }
    }
    return new Kept(samples, out);
  }

  /**
   * Whether a frame's method ({@code /Code/package/Class/name(descriptor)}) lies in {@code code}: in the package or
   * class, or the method itself; a method named without a descriptor is every overload of the name, and a method's
   * form ({@code .../interpreted}) is not on the stacks, so it stands for the method.
   */
  static boolean passes(String method, ResourcePath code) {
    ResourcePath frame;
    try {
      frame = ResourcePath.parse(method);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (frame.hierarchy() != Hierarchy.CODE) {
      return false;
    }
    if (code.depth() < 3) {
      return code.contains(frame);
    }
    if (frame.depth() < 3 || !frame.segments().subList(0, 2).equals(code.segments().subList(0, 2))) {
      return false;
    }
    String want = code.segments().get(2);
    String have = frame.segments().get(2);
    return want.equals(have) || want.indexOf('(') < 0 && have.startsWith(want + "(");
  }
}
