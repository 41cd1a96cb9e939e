package dev.bottlenose.consultant.rules;

import dev.bottlenose.consultant.NodeState;

/**
 * A conclusion the rules derive for a node (not API); it exists exactly while its evidence does. {@code
 * evidence} is what decided a true or false verdict, null for the others.
 */
public record Verdict(int nodeId, NodeState state, String reason, Evidence evidence) {
  /** A verdict that no measured evidence decided (unknown, pruned, a virtual node's). */
  public Verdict(int nodeId, NodeState state, String reason) {
    this(nodeId, state, reason, null);
  }
}
