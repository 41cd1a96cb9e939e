package dev.bottlenose.consultant.rules;

import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;

/**
 * A search-history-graph node as the rules see it (not API). {@code parentId} is the node it was first
 * refined from (-1 for the root); {@code along} the hierarchy of that where-refinement, null for a node
 * created on the why axis (it refines along every hierarchy its hypothesis allows).
 */
public record NodeFact(int id, int parentId, String hypothesisId, Focus focus, NodeState state, Hierarchy along, boolean virtual) {

  public NodeFact withState(NodeState s) {
    return new NodeFact(id, parentId, hypothesisId, focus, s, along, virtual);
  }
}
