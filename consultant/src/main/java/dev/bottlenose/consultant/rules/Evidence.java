package dev.bottlenose.consultant.rules;

/**
 * The evidence for one node being tested (not API): the current guess, the value and threshold it
 * came from, how long the guess has held, how long the node has been tested and how many values
 * counted; {@code clear}: the values since the guess began pass the threshold by so many standard errors
 * that waiting the full sufficient time would not change the verdict ({@link Timing#clearSeconds}).
 */
public record Evidence(int nodeId, Guess guess, double value, double threshold, double heldSeconds, double testedSeconds,
    int samples, boolean clear) {
  /** Evidence that is not yet clear. */
  public Evidence(int nodeId, Guess guess, double value, double threshold, double heldSeconds, double testedSeconds, int samples) {
    this(nodeId, guess, value, threshold, heldSeconds, testedSeconds, samples, false);
  }
}
