package dev.bottlenose.consultant.rules;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.Hierarchy;

/** A proposed child node, derived logically from a true parent (not API): it goes when the parent stops being true. */
public record Refinement(int parentId, String hypothesisId, Focus focus, Axis axis, Hierarchy along, String reason) {}
