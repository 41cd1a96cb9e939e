package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StronglyConnectedTest {

  @Test
  void aTreeIsOneComponentPerNodeTheLeavesFirst() {
    Map<Integer, List<Integer>> tree = new LinkedHashMap<>();
    tree.put(1, List.of(2, 3));
    tree.put(2, List.of());
    tree.put(3, List.of());
    assertThat(StronglyConnected.of(tree)).containsExactly(List.of(2), List.of(3), List.of(1));
  }

  @Test
  void aWalkBackToAnEarlierNodeIsOneComponentAndWhatHangsBelowItIsApart() {
    // 1 -> 2 -> 3 -> 4 -> 2 (a recursion through three methods), 3 -> 5, and an edge to a node not in the graph
    Map<Integer, List<Integer>> g = new LinkedHashMap<>();
    g.put(1, List.of(2));
    g.put(2, List.of(3));
    g.put(3, List.of(4, 5, 99));
    g.put(4, List.of(2));
    g.put(5, List.of());
    List<List<Integer>> components = StronglyConnected.of(g);
    assertThat(components).hasSize(3);
    assertThat(components.get(0)).containsExactly(5);
    assertThat(components.get(1)).containsExactlyInAnyOrder(2, 3, 4);
    assertThat(components.get(2)).containsExactly(1);
  }

  @Test
  void aLongChainDoesNotOverflowTheStack() {
    Map<Integer, List<Integer>> chain = new LinkedHashMap<>();
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      chain.put(i, i + 1 < n ? List.of(i + 1) : List.of(0));
    }
    List<List<Integer>> components = StronglyConnected.of(chain);
    assertThat(components).hasSize(1);
    assertThat(new ArrayList<>(components.get(0))).hasSize(n);
  }
}
