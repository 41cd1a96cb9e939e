package dev.bottlenose.consultant.rules;

/**
 * The evidence for one node being tested (not API): the current guess, the value and threshold it
 * came from, how long the guess has held, how long the node has been tested and how many values
 * counted.
 */
public record Evidence(int nodeId, Guess guess, double value, double threshold, double heldSeconds, double testedSeconds, int samples) {}
