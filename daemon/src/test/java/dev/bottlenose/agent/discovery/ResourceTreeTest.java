package dev.bottlenose.agent.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceTreeTest {
  private final ResourceTree tree = new ResourceTree();
  private final ResourcePath threads = Hierarchy.THREADS.root();
  private final ResourcePath pool = threads.child("pool-1");
  private final ResourcePath worker = pool.child("pool-1-thread-1");

  @Test
  void subtreeIsThePathThenItsDescendantsToTheDepth() {
    tree.put(Resource.of(threads, "root"));
    tree.put(Resource.of(pool, "pool"));
    tree.put(Resource.of(worker, "thread"));
    tree.put(Resource.of(threads.child("pool-10"), "pool"));

    assertThat(tree.subtree(threads, 1)).extracting(Resource::path).containsExactly(threads, pool, threads.child("pool-10"));
    assertThat(tree.subtree(pool, -1)).extracting(Resource::path).containsExactly(pool, worker);
    assertThat(tree.children(pool)).extracting(Resource::path).containsExactly(worker);
  }

  @Test
  void logsAddsRealUpdatesAndRemovalsOfWholeSubtrees() {
    tree.put(Resource.of(pool, "pool"));
    tree.put(Resource.of(worker, "thread"));
    tree.put(Resource.of(worker, "thread"));
    tree.put(new Resource(worker, "thread", Map.of("state", "BLOCKED")));
    tree.remove(pool);

    assertThat(tree.drainChanges()).extracting(ResourceChange::type).containsExactly(
        ResourceChange.Type.ADDED, ResourceChange.Type.ADDED, ResourceChange.Type.UPDATED,
        ResourceChange.Type.REMOVED, ResourceChange.Type.REMOVED);
    assertThat(tree.drainChanges()).isEmpty();
    assertThat(tree.get(worker)).isNull();
  }

  @Test
  void mergedChangesKeepOnePerResource() {
    tree.put(Resource.of(pool, "pool"));
    tree.put(new Resource(pool, "pool", Map.of("n", "1")));
    tree.put(Resource.of(worker, "thread"));
    tree.remove(worker);

    assertThat(Discovery.merge(tree.drainChanges())).containsExactly(
        new ResourceChange(ResourceChange.Type.ADDED, new Resource(pool, "pool", Map.of("n", "1"))));
  }
}
