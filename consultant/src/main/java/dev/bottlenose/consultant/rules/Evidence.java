package dev.bottlenose.consultant.rules;

/**
 * The evidence for one node being tested (not API): the current guess, the value and threshold it
 * came from, how long the guess has held, how long the node has been tested and how many values
 * counted; {@code clear}: the values since the guess began pass the threshold by so many standard errors
 * that waiting the full sufficient time would not change the verdict ({@link Timing#clearSeconds});
 * {@code decisive}: the value itself is on its guess's side of the threshold, so a verdict from it says
 * what its figures show. A pass must be at or past the bar of becoming true (the threshold moved by the
 * hysteresis): a guess that stays a pass inside the hysteresis band (0.29 against 0.30) keeps its held time
 * but cannot make the node true until the value passes the bar again. A fail must not pass the threshold.
 */
public record Evidence(int nodeId, Guess guess, double value, double threshold, double heldSeconds, double testedSeconds,
    int samples, boolean clear, boolean decisive) {
  /** Evidence that is not yet clear, and decisive. */
  public Evidence(int nodeId, Guess guess, double value, double threshold, double heldSeconds, double testedSeconds, int samples) {
    this(nodeId, guess, value, threshold, heldSeconds, testedSeconds, samples, false, true);
  }

  /** Decisive evidence, clear or not. */
  public Evidence(int nodeId, Guess guess, double value, double threshold, double heldSeconds, double testedSeconds,
      int samples, boolean clear) {
    this(nodeId, guess, value, threshold, heldSeconds, testedSeconds, samples, clear, true);
  }
}
