package dev.bottlenose.metrics;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects a plan's items, giving one id to equal requests (a derived metric may need one source twice). */
final class PlanBuilder {
  private final Map<String, ProbePlan.Item> bySignature = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();

  String source(Event event, Map<Hierarchy, Conditions.Lit> filters, String form) {
    return source(event, filters, form, null);
  }

  /** A watched source; {@code type}, for allocation samples, counts only objects of that allocated type. */
  String source(Event event, Map<Hierarchy, Conditions.Lit> filters, String form, String type) {
    Map<String, Object> source = new LinkedHashMap<>();
    source.put("event", event.word());
    if (filters.containsKey(Hierarchy.CODE)) {
      source.put("code", filters.get(Hierarchy.CODE).text());
    }
    if (filters.containsKey(Hierarchy.THREADS)) {
      source.put("thread", filters.get(Hierarchy.THREADS).text());
    }
    for (Hierarchy h : new Hierarchy[] {Hierarchy.SYNC_OBJECTS, Hierarchy.IO}) {
      if (filters.containsKey(h)) {
        source.put("resource", filters.get(h).text());
      }
    }
    if (form != null) {
      source.put("form", form);
    }
    if (type != null) {
      source.put("type", type);
    }
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("source", source);
    return add("s", "source", request);
  }

  String probe(String kind, ResourcePath method, ResourcePath callee) {
    return probe(kind, method, callee, null);
  }

  /** A probe; {@code type}, for an allocation probe, counts only objects of that allocated type. */
  String probe(String kind, ResourcePath method, ResourcePath callee, String type) {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("method", method.toString());
    request.put("kind", kind);
    if (callee != null) {
      request.put("callee", callee.toString());
    }
    if (type != null) {
      request.put("allocatedType", type);
    }
    return add("p", "probe", request);
  }

  String expansion(String kind, ResourcePath under, String type) {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("expand", under.toString());
    request.put("kind", kind);
    if (type != null) {
      request.put("allocatedType", type);
    }
    note("item for " + under + " is one " + kind + " probe per method " + (under.depth() == 1 ? "of every class of the package" : "of the class")
        + ", which the daemon lists from the target and sums");
    return add("x", "probes", request);
  }

  void note(String note) {
    if (!notes.contains(note)) {
      notes.add(note);
    }
  }

  private String add(String prefix, String type, Map<String, Object> request) {
    String signature = type + dev.bottlenose.model.json.Json.write(request);
    ProbePlan.Item item = bySignature.get(signature);
    if (item == null) {
      item = new ProbePlan.Item(prefix + bySignature.size(), type, request);
      bySignature.put(signature, item);
    }
    return item.id();
  }

  List<ProbePlan.Item> items() {
    return new ArrayList<>(bySignature.values());
  }

  List<String> notes() {
    return notes;
  }
}
