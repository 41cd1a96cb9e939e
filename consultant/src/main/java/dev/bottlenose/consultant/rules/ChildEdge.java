package dev.bottlenose.consultant.rules;

import dev.bottlenose.model.Hierarchy;

/** A where-refinement edge of the graph as the rules see it (not API); a node reached twice has two. */
public record ChildEdge(int from, int to, Hierarchy along) {}
