package dev.bottlenose.consultant;

import dev.bottlenose.consultant.rules.NodeFact;
import dev.bottlenose.consultant.rules.RuleSession;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The nodes of one search, and the one place a node's state changes: a state is kept in the node's
 * {@link NodeFact}, and every change goes at once to the rules (which reason over the fact) and to the
 * search-history graph (which shows it, with the reason and the time).
 */
final class SearchNodes {
  private final SearchHistoryGraph graph;
  private final RuleSession rules;
  private final InstantSource clock;
  private final Map<Integer, Node> nodes = new HashMap<>();

  /** A node being searched: its hypothesis, its fact (focus, parent, state), and its experiment while it is measured. */
  static final class Node {
    final Hypothesis hypothesis;
    private NodeFact fact;
    Experiment experiment;

    private Node(Hypothesis hypothesis, NodeFact fact) {
      this.hypothesis = hypothesis;
      this.fact = fact;
    }

    int id() {
      return fact.id();
    }

    int parentId() {
      return fact.parentId();
    }

    Focus focus() {
      return fact.focus();
    }

    Hierarchy along() {
      return fact.along();
    }

    NodeState state() {
      return fact.state();
    }
  }

  SearchNodes(SearchHistoryGraph graph, RuleSession rules, InstantSource clock) {
    this.graph = graph;
    this.rules = rules;
    this.clock = clock;
  }

  /** Adds the node {@code shg} of the graph, untested, and tells the rules of it. */
  Node add(ShgNode shg, Hypothesis h, int parentId, Hierarchy along) {
    Node node = new Node(h, new NodeFact(shg.id(), parentId, h.id(), shg.focus(), NodeState.UNTESTED, along, h.isVirtual()));
    nodes.put(shg.id(), node);
    rules.put(node.fact);
    return node;
  }

  Node get(int id) {
    return nodes.get(id);
  }

  Collection<Node> all() {
    return nodes.values();
  }

  boolean isEmpty() {
    return nodes.isEmpty();
  }

  /** Sets a node's state, with why: in its fact, for the rules, and in the graph. */
  void setState(int id, NodeState state, String reason) {
    setState(id, state, reason, null);
  }

  /** Sets a node's state as {@link #setState(int, NodeState, String)} does, with the figures that decided it (or null). */
  void setState(int id, NodeState state, String reason, ShgNode.Decision decision) {
    Node node = nodes.get(id);
    node.fact = node.fact.withState(state);
    rules.put(node.fact);
    long now = clock.millis();
    graph.update(id, n -> n.withState(state, reason, now, decision));
  }
}
