package dev.bottlenose.consultant.rules;

import dev.bottlenose.model.ResourcePath;

/** A resource a cheap always-on source marked as promising (not API): Deep Start jumps to it. */
public record Hint(ResourcePath path, double weight, String source) {}
