package dev.bottlenose.consultant.rules;

/**
 * A node whose refinements may be tested (not API): it tested true, or, still being tested, its
 * evidence has passed the threshold long enough that its children start while its own verdict is due.
 */
public record Promising(int nodeId) {}
