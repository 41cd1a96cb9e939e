package dev.bottlenose.consultant.rules;

/** What the evidence says right now (not API): the value passes the threshold, fails it, or there is none yet. */
public enum Guess {
  PASSES,
  FAILS,
  NONE
}
