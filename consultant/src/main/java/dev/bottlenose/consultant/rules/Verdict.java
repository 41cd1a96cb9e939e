package dev.bottlenose.consultant.rules;

import dev.bottlenose.consultant.NodeState;

/** A conclusion the rules derive for a node (not API); it exists exactly while its evidence does. */
public record Verdict(int nodeId, NodeState state, String reason) {}
