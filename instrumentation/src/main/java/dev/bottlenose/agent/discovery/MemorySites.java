package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /Memory/<allocated type>/<allocation site as class.method>} from JFR's allocation samples,
 * with the samples and their weight (bytes the samples stand for).
 */
final class MemorySites {
  private final ResourceTree tree;
  private final Map<ResourcePath, long[]> totals = new HashMap<>();

  MemorySites(ResourceTree tree) {
    this.tree = tree;
  }

  void start() {
    tree.put(Resource.of(Hierarchy.MEMORY.root(), "root"));
  }

  synchronized void sampled(String type, String site, long weight, long samples) {
    ResourcePath typePath = Hierarchy.MEMORY.root().child(type);
    add(typePath, "type", weight, samples);
    add(typePath.child(site), "site", weight, samples);
  }

  private void add(ResourcePath path, String kind, long weight, long samples) {
    long[] t = totals.computeIfAbsent(path, p -> new long[2]);
    t[0] += samples;
    t[1] += weight;
    Map<String, String> a = new LinkedHashMap<>();
    a.put("samples", String.valueOf(t[0]));
    a.put("sampledBytes", String.valueOf(t[1]));
    tree.put(new Resource(path, kind, a));
  }
}
