package dev.bottlenose.web.render;

import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.model.json.ModelJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.alg.layered.options.NodePlacementStrategy;
import org.eclipse.elk.alg.layered.options.OrderingStrategy;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * A {@link ShgView} laid out by ELK Layered (the Eclipse Layout Kernel's layered, Sugiyama-style algorithm): left
 * to right, a parent's layer before its children's, crossings minimised, lines routed orthogonally around the boxes.
 * A box is one line high and as wide as its label (plus room for the collapse toggle); the boxes and lines keep
 * the view's order where the crossings allow, so a live graph that grows moves little between drawings. Hundreds of
 * boxes take a few hundred milliseconds ({@link #thoroughness}), the first layout in a JVM a second or two more.
 */
public final class ShgLayout {
  /** A box's height, and the room its label has on either side. */
  public static final int BOX_HEIGHT = 22;
  public static final int PAD = 6;
  /** The room at a box's right for its collapse toggle (a circle of radius {@link #TOGGLE_RADIUS}). */
  public static final int TOGGLE = 18;
  public static final int TOGGLE_RADIUS = 6;
  /** Around the whole drawing. */
  public static final int MARGIN = 12;

  /** Where a box goes: its top-left corner and size. */
  public record Placed(ShgView.Box box, double x, double y, double width, double height) {}

  /** A line's route: its start, bend points and end (on the boxes' borders). */
  public record Route(ShgView.Line line, List<double[]> points) {}

  private final ShgView view;
  private final List<Placed> boxes;
  private final List<Route> routes;
  private final double width;
  private final double height;

  private ShgLayout(ShgView view, List<Placed> boxes, List<Route> routes, double width, double height) {
    this.view = view;
    this.boxes = boxes;
    this.routes = routes;
    this.width = width;
    this.height = height;
  }

  /** Lays {@code view} out. */
  public static ShgLayout of(ShgView view) {
    ElkNode root = ElkGraphUtil.createGraph();
    root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
    root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
    root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
    root.setProperty(CoreOptions.PADDING, new ElkPadding(MARGIN));
    root.setProperty(LayeredOptions.SPACING_NODE_NODE, 8.0);
    root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 36.0);
    root.setProperty(LayeredOptions.SPACING_EDGE_NODE_BETWEEN_LAYERS, 8.0);
    root.setProperty(LayeredOptions.SPACING_EDGE_EDGE_BETWEEN_LAYERS, 5.0);
    root.setProperty(LayeredOptions.SPACING_COMPONENT_COMPONENT, 24.0);
    root.setProperty(LayeredOptions.MERGE_EDGES, true);
    root.setProperty(LayeredOptions.CONSIDER_MODEL_ORDER_STRATEGY, OrderingStrategy.NODES_AND_EDGES);
    root.setProperty(LayeredOptions.THOROUGHNESS, thoroughness(view.boxes().size()));
    Map<String, ElkNode> nodes = new LinkedHashMap<>();
    for (ShgView.Box b : view.boxes()) {
      ElkNode n = ElkGraphUtil.createNode(root);
      n.setIdentifier(b.key());
      n.setDimensions(width(b), BOX_HEIGHT);
      nodes.put(b.key(), n);
    }
    List<ElkEdge> edges = new ArrayList<>();
    for (ShgView.Line l : view.lines()) {
      edges.add(ElkGraphUtil.createSimpleEdge(nodes.get(l.from()), nodes.get(l.to())));
    }
    try {
      new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());
    } catch (AssertionError | RuntimeException e) {
      // ELK's default node placement (Brandes-Köpf) trips one of its own assertions on some graphs, when the JVM runs
      // with assertions on (as the tests do); placing the nodes by linear segments lays those graphs out
      root.setProperty(LayeredOptions.NODE_PLACEMENT_STRATEGY, NodePlacementStrategy.LINEAR_SEGMENTS);
      new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());
    }

    List<Placed> placed = new ArrayList<>();
    for (ShgView.Box b : view.boxes()) {
      ElkNode n = nodes.get(b.key());
      placed.add(new Placed(b, n.getX(), n.getY(), n.getWidth(), n.getHeight()));
    }
    List<Route> routes = new ArrayList<>();
    for (int i = 0; i < edges.size(); i++) {
      routes.add(new Route(view.lines().get(i), points(edges.get(i))));
    }
    return new ShgLayout(view, List.copyOf(placed), List.copyOf(routes), root.getWidth(), root.getHeight());
  }

  /**
   * How hard ELK tries to cut crossings (its default, 7, up to a hundred boxes, down to 1 from 700): a graph this
   * shape is a tree with a few extra lines, so more tries add little to a large view but seconds to its layout.
   */
  static int thoroughness(int boxes) {
    return Math.max(1, Math.min(7, 700 / Math.max(1, boxes)));
  }

  /** A box's width: its label's, padded, with room for the toggle when it has one. */
  static double width(ShgView.Box b) {
    return Math.ceil(NodeLabels.width(b.label())) + 2 * PAD + (b.collapsible() ? TOGGLE : 0);
  }

  private static List<double[]> points(ElkEdge e) {
    List<double[]> points = new ArrayList<>();
    for (ElkEdgeSection s : e.getSections()) {
      points.add(new double[] {s.getStartX(), s.getStartY()});
      for (ElkBendPoint p : s.getBendPoints()) {
        points.add(new double[] {p.getX(), p.getY()});
      }
      points.add(new double[] {s.getEndX(), s.getEndY()});
    }
    return List.copyOf(points);
  }

  public ShgView view() {
    return view;
  }

  /** The boxes, in the view's order. */
  public List<Placed> boxes() {
    return boxes;
  }

  /** The lines' routes, in the view's order. */
  public List<Route> routes() {
    return routes;
  }

  /** The drawing's size, margins included. */
  public double width() {
    return width;
  }

  public double height() {
    return height;
  }

  /**
   * The layout for the page to draw: its size and filter, how many nodes the graph has, are drawn and are grouped,
   * each box (a node's {@code id}, hypothesis, focus, state and the {@code unit} its value is written with; a group's
   * {@code parent} and {@code members}; both their {@code key}, place, size, label, tooltip and whether they collapse),
   * each line's route, and the legend.
   */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("width", round(width));
    m.put("height", round(height));
    m.put("show", view.show().word());
    m.put("nodes", view.nodes());
    m.put("drawnNodes", view.drawnNodes());
    m.put("groupedNodes", view.groupedNodes());
    m.put("boxes", boxes.stream().map(ShgLayout::json).toList());
    m.put("lines", routes.stream().map(ShgLayout::json).toList());
    m.put("legend", ShgStyle.legend());
    return m;
  }

  private static Map<String, Object> json(Placed p) {
    ShgView.Box b = p.box();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("key", b.key());
    if (b.isGroup()) {
      m.put("parent", b.parent());
      m.put("members", b.members().stream().map(ShgNode::id).toList());
    } else {
      m.put("id", b.node().id());
      m.put("hypothesis", b.node().hypothesis());
      m.put("focus", ModelJson.toJson(b.node().focus()));
      m.put("unit", b.unit());
    }
    m.put("state", b.state().word());
    m.put("x", round(p.x()));
    m.put("y", round(p.y()));
    m.put("width", round(p.width()));
    m.put("height", round(p.height()));
    m.put("label", b.label());
    m.put("title", b.tooltip());
    m.put("collapsible", b.collapsible());
    m.put("collapsed", b.collapsed());
    m.put("hidden", b.hidden());
    return m;
  }

  private static Map<String, Object> json(Route r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("from", r.line().from());
    m.put("to", r.line().to());
    m.put("axis", r.line().axis().word());
    m.put("primary", r.line().primary());
    m.put("points", r.points().stream().map(p -> List.of(round(p[0]), round(p[1]))).toList());
    return m;
  }

  /** A coordinate to a tenth of a pixel. */
  static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
