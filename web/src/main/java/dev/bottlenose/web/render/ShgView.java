package dev.bottlenose.web.render;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.Hypothesis;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgEdge;
import dev.bottlenose.consultant.ShgNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What of a search-history graph is drawn, for the page and the SVG export alike: the boxes (a node, or one box for
 * a node's many false leaves) and the lines between them. A node hangs from its first parent (the graph is a DAG:
 * its other in-edges are drawn too, as extra lines); what is drawn follows the {@link Options}: a filter (every
 * node, the paths to true nodes, to the findings, or to chosen nodes), subtrees collapsed (by the user, or below a
 * depth) and groups opened. The defaults are what a user should see first: a large graph only the paths to its
 * findings, a node's false leaves as one box.
 */
public final class ShgView {
  /** Graphs with more nodes than this open on the paths to their findings: the rest is the search's working. */
  public static final int LARGE = 60;
  /** A node's false leaves are drawn as one group box from this many on. */
  public static final int GROUP_MIN = 6;

  /** Which nodes are drawn: every one, or only those on the paths (from a top node) to true nodes, findings or chosen nodes. */
  public enum Show {
    ALL, TRUE, FINDINGS, NODES;

    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The filter {@code word} names; an IllegalArgumentException naming the known ones otherwise. */
    public static Show byWord(String word) {
      for (Show s : values()) {
        if (s.word().equals(word)) {
          return s;
        }
      }
      throw new IllegalArgumentException("show must be all, true, findings or nodes, is '" + word + "'");
    }
  }

  /**
   * What the user chose: the filter ({@code show}; null: {@link Show#FINDINGS} for a graph of more than {@link #LARGE}
   * nodes that has findings, else {@link Show#ALL}), the nodes of {@link Show#NODES} ({@code to}), a depth below which
   * subtrees are collapsed (0: none), the nodes collapsed and those expanded (though below that depth), and the nodes
   * whose false leaves are drawn one by one ({@code opened}). Ids the graph does not have are ignored.
   */
  public record Options(Show show, Set<Integer> to, int depth, Set<Integer> collapsed, Set<Integer> expanded, Set<Integer> opened) {
    /** What a user sees first. */
    public static final Options DEFAULT = new Options(null, Set.of(), 0, Set.of(), Set.of(), Set.of());

    public Options {
      if (depth < 0) {
        throw new IllegalArgumentException("depth must be 0 or more, is " + depth);
      }
      to = Set.copyOf(to);
      collapsed = Set.copyOf(collapsed);
      expanded = Set.copyOf(expanded);
      opened = Set.copyOf(opened);
    }
  }

  /**
   * One box: a node ({@code members} empty) and its hypothesis (null when the search's hypotheses no longer have it),
   * or the false leaves {@code members} of node {@code parent} ({@code node} and {@code hypothesis} null). {@code
   * collapsible}: it has children drawn or collapsed; {@code hidden}: how many nodes its collapse hides.
   */
  public record Box(String key, ShgNode node, Hypothesis hypothesis, List<ShgNode> members, int parent, boolean collapsible,
      boolean collapsed, int hidden) {
    public boolean isGroup() {
      return node == null;
    }

    public NodeState state() {
      return isGroup() ? NodeState.FALSE : node.state();
    }

    public String label() {
      return isGroup() ? NodeLabels.ofGroup(members) : NodeLabels.of(node);
    }

    public String tooltip() {
      return isGroup() ? NodeLabels.groupTooltip(members) : NodeLabels.tooltip(node, hypothesis);
    }

    /** The words a node's value is written with ({@link Findings#unitWords}), {@code s per second}; empty for a group. */
    public String unit() {
      return Findings.unitWords(hypothesis);
    }
  }

  /** A line from box {@code from} to box {@code to}; primary: the one a node hangs from (or to a group box). */
  public record Line(String from, String to, Axis axis, boolean primary) {}

  private final Show show;
  private final List<Box> boxes;
  private final List<Line> lines;
  private final int nodes;

  private ShgView(Show show, List<Box> boxes, List<Line> lines, int nodes) {
    this.show = show;
    this.boxes = boxes;
    this.lines = lines;
    this.nodes = nodes;
  }

  /**
   * What of {@code graph}, searched with {@code hypotheses}, is drawn with {@code options}; {@code findings}: the node
   * of each of its findings.
   */
  public static ShgView of(SearchHistoryGraph graph, HypothesisCatalog hypotheses, Collection<Integer> findings, Options options) {
    return new Builder(graph.nodes(), graph.edges(), hypotheses, findings, options).build();
  }

  /** The node each of {@code findings} was found at, for {@link #of}. */
  public static List<Integer> nodesOf(List<Findings.Finding> findings) {
    return findings.stream().map(f -> f.nodeIds().get(0)).toList();
  }

  /** The key of node {@code id}'s box. */
  public static String key(int id) {
    return Integer.toString(id);
  }

  /** The key of the box of node {@code parent}'s false leaves. */
  public static String groupKey(int parent) {
    return "group-" + parent;
  }

  /** The filter applied: the one asked for, or the default chosen for this graph. */
  public Show show() {
    return show;
  }

  /** The boxes, parents before their children. */
  public List<Box> boxes() {
    return boxes;
  }

  public List<Line> lines() {
    return lines;
  }

  /** How many nodes the graph has. */
  public int nodes() {
    return nodes;
  }

  /** How many nodes are drawn in boxes of their own. */
  public int drawnNodes() {
    return (int) boxes.stream().filter(b -> !b.isGroup()).count();
  }

  /** How many nodes are drawn inside group boxes. */
  public int groupedNodes() {
    return boxes.stream().mapToInt(b -> b.members().size()).sum();
  }

  /** The view's computation: the graph indexed by edge, then a walk from the top nodes along first parents. */
  private static final class Builder {
    private final Map<Integer, ShgNode> byId = new LinkedHashMap<>();
    private final Map<Integer, List<ShgEdge>> incoming = new HashMap<>();
    private final Map<Integer, List<ShgEdge>> outgoing = new HashMap<>();
    private final List<ShgEdge> edges = new ArrayList<>();
    private final HypothesisCatalog hypotheses;
    private final Options options;
    private final Show show;
    /** The nodes on the filter's paths; null: every node. */
    private final Set<Integer> keep;
    private final List<Box> boxes = new ArrayList<>();
    private final Map<String, Box> placed = new HashMap<>();

    Builder(List<ShgNode> nodes, List<ShgEdge> all, HypothesisCatalog hypotheses, Collection<Integer> findings, Options options) {
      nodes.forEach(n -> byId.put(n.id(), n));
      for (ShgEdge e : all) {
        // a live graph read edge by edge may name a node not read yet
        if (byId.containsKey(e.from()) && byId.containsKey(e.to())) {
          edges.add(e);
          incoming.computeIfAbsent(e.to(), k -> new ArrayList<>()).add(e);
          outgoing.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e);
        }
      }
      this.hypotheses = hypotheses;
      this.options = options;
      this.show = options.show() != null ? options.show()
          : nodes.size() > LARGE && !findings.isEmpty() ? Show.FINDINGS : Show.ALL;
      this.keep = switch (show) {
        case ALL -> null;
        case TRUE -> onPathsTo(byId.values().stream().filter(n -> n.state() == NodeState.TRUE).map(ShgNode::id).toList(), false);
        case FINDINGS -> findings.isEmpty() ? null : onPathsTo(findings, true);
        case NODES -> onPathsTo(options.to(), true);
      };
    }

    ShgView build() {
      for (ShgNode n : byId.values()) {
        if (!incoming.containsKey(n.id()) && visible(n.id())) {
          place(n.id(), 0);
        }
      }
      List<Line> lines = new ArrayList<>();
      for (ShgEdge e : edges) {
        if (placed.containsKey(key(e.from())) && placed.containsKey(key(e.to()))) {
          lines.add(new Line(key(e.from()), key(e.to()), e.axis(), primaryParent(e.to()) == e));
        }
      }
      for (Box b : boxes) {
        if (b.isGroup()) {
          ShgEdge first = primaryParent(b.members().get(0).id());
          boolean oneAxis = b.members().stream().allMatch(m -> primaryParent(m.id()).axis() == first.axis());
          lines.add(new Line(key(b.parent()), b.key(), oneAxis ? first.axis() : Axis.WHERE, true));
        }
      }
      return new ShgView(show, List.copyOf(boxes), List.copyOf(lines), byId.size());
    }

    /**
     * The nodes {@code ids} and every node that leads to one of them: along any edge, or ({@code firstOnly}) along
     * each node's first parent, the one it hangs from.
     */
    private Set<Integer> onPathsTo(Collection<Integer> ids, boolean firstOnly) {
      Set<Integer> on = new HashSet<>();
      Deque<Integer> stack = new ArrayDeque<>(ids.stream().filter(byId::containsKey).toList());
      while (!stack.isEmpty()) {
        int id = stack.pop();
        if (on.add(id)) {
          List<ShgEdge> parents = incoming.getOrDefault(id, List.of());
          for (ShgEdge e : firstOnly ? parents.subList(0, Math.min(1, parents.size())) : parents) {
            stack.push(e.from());
          }
        }
      }
      return on;
    }

    private boolean visible(int id) {
      return keep == null || keep.contains(id);
    }

    private ShgEdge primaryParent(int id) {
      List<ShgEdge> in = incoming.get(id);
      return in == null ? null : in.get(0);
    }

    /** The children drawn under {@code id} when it is open: those that hang from it and pass the filter. */
    private List<Integer> kids(int id) {
      List<Integer> kids = new ArrayList<>();
      for (ShgEdge e : outgoing.getOrDefault(id, List.of())) {
        if (primaryParent(e.to()) == e && visible(e.to())) {
          kids.add(e.to());
        }
      }
      return kids;
    }

    private void place(int id, int depth) {
      List<Integer> kids = kids(id);
      boolean collapsed = !kids.isEmpty() && (options.collapsed().contains(id)
          || options.depth() > 0 && depth >= options.depth() && !options.expanded().contains(id));
      ShgNode n = byId.get(id);
      add(new Box(key(id), n, hypotheses.get(n.hypothesis()), List.of(), -1, !kids.isEmpty(), collapsed, collapsed ? below(id) : 0));
      if (collapsed) {
        return;
      }
      List<ShgNode> quiet = kids.stream().map(byId::get)
          .filter(c -> c.state() == NodeState.FALSE && kids(c.id()).isEmpty()).toList();
      boolean grouped = quiet.size() >= GROUP_MIN && !options.opened().contains(id);
      for (int k : kids) {
        if (!grouped || !quiet.contains(byId.get(k))) {
          place(k, depth + 1);
        }
      }
      if (grouped) {
        add(new Box(groupKey(id), null, null, quiet, id, false, false, 0));
      }
    }

    private void add(Box b) {
      boxes.add(b);
      placed.put(b.key(), b);
    }

    /** How many nodes hang below {@code id} (and pass the filter). */
    private int below(int id) {
      int n = 0;
      Deque<Integer> stack = new ArrayDeque<>(kids(id));
      while (!stack.isEmpty()) {
        n++;
        kids(stack.pop()).forEach(stack::push);
      }
      return n;
    }
  }
}
