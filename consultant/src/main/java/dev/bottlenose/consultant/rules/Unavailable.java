package dev.bottlenose.consultant.rules;

import dev.bottlenose.consultant.MeasurementFailure;

/** A node whose measurement cannot be made (not API). */
public record Unavailable(int nodeId, MeasurementFailure.Kind kind, String reason) {}
