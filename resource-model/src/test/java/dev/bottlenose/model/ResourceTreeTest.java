package dev.bottlenose.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.ResourceChange.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ResourceTreeTest {
  private static final ResourcePath STEP = ResourcePath.parse("/Code/com.acme/Sim/step(I)V");
  private final ResourceTree tree = new ResourceTree();

  @Test
  void rootsAlwaysExist() {
    assertThat(tree.size()).isEqualTo(Hierarchy.values().length);
    assertThat(tree.get(ResourcePath.parse("/SyncObjects"))).isEqualTo(Resource.of(ResourcePath.parse("/SyncObjects"), "root"));
    assertThat(tree.remove(Hierarchy.CODE.root())).isFalse();
    assertThat(tree.drainChanges()).isEmpty();
  }

  @Test
  void putCreatesAncestorsWithKinds() {
    assertThat(tree.put(Resource.of(STEP.child("c2"), "form"))).isTrue();

    assertThat(tree.subtree(Hierarchy.CODE.root(), -1)).extracting(Resource::kind).containsExactly("root", "package", "class", "method", "form");
    assertThat(tree.subtree(Hierarchy.CODE.root(), 1)).extracting(r -> r.path().toString()).containsExactly("/Code", "/Code/com.acme");
    assertThat(tree.subtree(STEP, 0)).extracting(Resource::path).containsExactly(STEP);
    assertThat(tree.get(ResourcePath.parse("/Code/com.acme/Sim")).kind()).isEqualTo("class");
    tree.put(Resource.of(ResourcePath.parse("/IO/file//tmp/a"), "file"));
    assertThat(tree.get(ResourcePath.parse("/IO/file")).kind()).isEqualTo("group");
    assertThat(tree.size()).isEqualTo(Hierarchy.values().length + 6);
  }

  @Test
  void childrenAreSortedByName() {
    for (String name : List.of("worker-2", "main", "Finalizer", "worker-10")) {
      tree.put(Resource.of(ResourcePath.of(Hierarchy.THREADS, "system", name), "thread"));
    }

    assertThat(tree.children(ResourcePath.parse("/Threads/system"))).extracting(Resource::path).extracting(ResourcePath::name)
        .containsExactly("Finalizer", "main", "worker-10", "worker-2");
    assertThat(tree.children(ResourcePath.parse("/Threads/none"))).isEmpty();
    assertThat(tree.subtree(ResourcePath.parse("/Threads/none"), -1)).isEmpty();
  }

  @Test
  void putReportsWhetherAnythingChanged() {
    Resource running = new Resource(ResourcePath.parse("/Threads/main"), "thread", Map.of("state", "RUNNABLE"));
    Resource blocked = new Resource(ResourcePath.parse("/Threads/main"), "thread", Map.of("state", "BLOCKED"));

    assertThat(tree.put(running)).isTrue();
    assertThat(tree.put(running)).isFalse();
    assertThat(tree.put(blocked)).isTrue();
    assertThat(tree.get(running.path())).isEqualTo(blocked);
  }

  @Test
  void removeDeletesTheSubtree() {
    tree.put(Resource.of(STEP, "method"));
    tree.put(Resource.of(ResourcePath.parse("/Code/com.acme/Other"), "class"));
    tree.drainChanges();

    assertThat(tree.remove(ResourcePath.parse("/Code/com.acme/Sim"))).isTrue();
    assertThat(tree.remove(ResourcePath.parse("/Code/com.acme/Sim"))).isFalse();

    assertThat(tree.get(STEP)).isNull();
    assertThat(tree.children(ResourcePath.parse("/Code/com.acme"))).extracting(Resource::kind).containsExactly("class");
    assertThat(tree.drainChanges()).extracting(c -> c.type() + " " + c.path())
        .containsExactly("REMOVED /Code/com.acme/Sim", "REMOVED /Code/com.acme/Sim/step(I)V");
    assertThat(tree.remove(Hierarchy.CODE.root())).isTrue();
    assertThat(tree.size()).isEqualTo(Hierarchy.values().length);
  }

  @Test
  void changesAreCoalescedToTheNetEffect() {
    Resource t = Resource.of(ResourcePath.parse("/Threads/t"), "thread");
    Resource u = Resource.of(ResourcePath.parse("/Threads/u"), "thread");
    tree.put(u);
    tree.drainChanges();

    tree.put(t);
    tree.put(new Resource(t.path(), "thread", Map.of("state", "NEW")));
    tree.put(new Resource(t.path(), "thread", Map.of("state", "RUNNABLE")));
    tree.remove(u.path());
    tree.put(Resource.of(ResourcePath.parse("/Threads/gone"), "thread"));
    tree.remove(ResourcePath.parse("/Threads/gone"));

    assertThat(tree.drainChanges()).containsExactly(
        new ResourceChange(Type.REMOVED, u), new ResourceChange(Type.ADDED, new Resource(t.path(), "thread", Map.of("state", "RUNNABLE"))));
    assertThat(tree.drainChanges()).isEmpty();

    tree.remove(t.path());
    tree.put(t);
    tree.put(new Resource(t.path(), "thread", Map.of("state", "NEW")));
    assertThat(tree.drainChanges()).containsExactly(new ResourceChange(Type.UPDATED, new Resource(t.path(), "thread", Map.of("state", "NEW"))));
  }

  @Test
  void concurrentWritersAndReadersKeepTheTreeConsistent() throws Exception {
    int threads = 4;
    int perThread = 500;
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    List<ResourceChange> drained = java.util.Collections.synchronizedList(new ArrayList<>());
    try {
      for (int w = 0; w < threads; w++) {
        int id = w;
        futures.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            tree.put(Resource.of(ResourcePath.of(Hierarchy.CODE, "p" + id, "C" + (i % 50), "m" + i + "()V"), "method"));
            if (i % 10 == 9) {
              tree.remove(ResourcePath.of(Hierarchy.CODE, "p" + id, "C" + (i % 50), "m" + i + "()V"));
            }
          }
          return null;
        }));
      }
      futures.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < 200; i++) {
          drained.addAll(tree.drainChanges());
          assertThat(tree.subtree(Hierarchy.CODE.root(), -1)).first().isEqualTo(tree.get(Hierarchy.CODE.root()));
        }
        return null;
      }));
      start.countDown();
      for (Future<?> f : futures) {
        f.get(10, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    drained.addAll(tree.drainChanges());

    int methods = threads * perThread * 9 / 10;
    int classes = threads * 50;
    assertThat(tree.size()).isEqualTo(Hierarchy.values().length + threads + classes + methods);
    assertThat(tree.subtree(Hierarchy.CODE.root(), -1)).hasSize(1 + threads + classes + methods);
    long net = drained.stream().mapToLong(c -> c.type() == Type.ADDED ? 1 : c.type() == Type.REMOVED ? -1 : 0).sum();
    assertThat(net).isEqualTo(threads + classes + methods);
  }
}
