package dev.bottlenose.consultant.rules;

/** The timing settings the verdict rules use (not API). */
public record Timing(double sufficientSeconds, double decisionTimeoutSeconds) {}
