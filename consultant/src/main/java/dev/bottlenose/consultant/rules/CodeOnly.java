package dev.bottlenose.consultant.rules;

/**
 * A hypothesis whose metric can be measured only at a {@code /Code} focus (bytecode probes in the
 * focus's methods), never at the whole program (not API): it is asked where its parent is true in a
 * {@code /Code} package, not at the whole program.
 */
public record CodeOnly(String hypothesisId) {}
