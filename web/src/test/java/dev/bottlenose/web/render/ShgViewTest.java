package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.ShgEdge;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.web.render.ShgView.Options;
import dev.bottlenose.web.render.ShgView.Show;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ShgViewTest {
  private static final SearchHistoryGraph LARGE = Graphs.large("big");
  /** The hot method of the first class of the first package, a true leaf's parent. */
  private static final ShgNode HOT_METHOD = LARGE.nodes().stream()
      .filter(n -> n.focus().toString().equals("</Code/com.acme.p0/Class0/work0()V>")).findFirst().orElseThrow();

  private static Options show(Show show) {
    return new Options(show, Set.of(), 0, Set.of(), Set.of(), Set.of());
  }

  private static Set<Integer> drawn(ShgView view) {
    return view.boxes().stream().filter(b -> !b.isGroup()).map(b -> b.node().id()).collect(Collectors.toSet());
  }

  @Test
  void aNodesSixOrMoreFalseLeavesAreOneGroupBoxAndEveryNodeIsDrawnOnceOrGrouped() {
    ShgView view = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), show(Show.ALL));
    assertThat(LARGE.nodes()).hasSizeGreaterThanOrEqualTo(500);
    assertThat(view.drawnNodes() + view.groupedNodes()).isEqualTo(LARGE.nodes().size());
    assertThat(drawn(view)).hasSize(view.drawnNodes());
    ShgView.Box group = view.boxes().stream().filter(b -> b.isGroup() && LARGE.node(b.parent()).focus().toString()
        .equals("</Code/com.acme.p0/Class0>")).findFirst().orElseThrow();
    // 20 methods: the hot one (a true parent), two stopped (m % 7 == 6), 17 false leaves
    assertThat(group.members()).hasSize(17).allMatch(m -> m.state() == NodeState.FALSE && LARGE.children(m.id()).isEmpty());
    assertThat(group.label()).isEqualTo("17 false: cpu_bound");
    assertThat(group.key()).isEqualTo(ShgView.groupKey(group.parent()));
    assertThat(view.lines()).contains(new ShgView.Line(ShgView.key(group.parent()), group.key(), Axis.WHERE, true));
    // the class's package has five false classes and an unknown one: too few to group
    ShgView.Box pkg = view.boxes().stream().filter(b -> !b.isGroup() && b.node().focus().toString().equals("</Code/com.acme.p0>"))
        .findFirst().orElseThrow();
    assertThat(view.boxes()).noneMatch(b -> b.isGroup() && b.parent() == pkg.node().id());
  }

  @Test
  void anOpenedGroupDrawsItsMembersOneByOne() {
    ShgView grouped = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), show(Show.ALL));
    ShgView.Box group = grouped.boxes().stream().filter(ShgView.Box::isGroup).findFirst().orElseThrow();
    ShgView opened = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), new Options(Show.ALL, Set.of(), 0, Set.of(), Set.of(), Set.of(group.parent())));
    assertThat(opened.drawnNodes()).isEqualTo(grouped.drawnNodes() + group.members().size());
    assertThat(drawn(opened)).containsAll(group.members().stream().map(ShgNode::id).toList());
    assertThat(opened.boxes()).noneMatch(b -> b.key().equals(group.key()));
  }

  @Test
  void theTruePathsDrawEveryTrueNodeAndNoFalseOne() {
    ShgView view = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), show(Show.TRUE));
    Set<Integer> trueNodes = LARGE.nodes().stream().filter(n -> n.state() == NodeState.TRUE).map(ShgNode::id).collect(Collectors.toSet());
    assertThat(drawn(view)).isEqualTo(trueNodes);
    assertThat(view.groupedNodes()).isZero();
    // the DAG's second parents are drawn as extra lines
    assertThat(view.lines()).anyMatch(l -> !l.primary());
  }

  @Test
  void thePathsToChosenNodesFollowFirstParents() {
    ShgView view = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), new Options(Show.NODES, Set.of(HOT_METHOD.id()), 0, Set.of(), Set.of(), Set.of()));
    List<String> foci = view.boxes().stream().map(b -> b.node().hypothesis() + " " + b.node().focus()).toList();
    assertThat(foci).containsExactly("top <>", "cpu_bound <>", "cpu_bound </Code/com.acme.p0>", "cpu_bound </Code/com.acme.p0/Class0>",
        "cpu_bound </Code/com.acme.p0/Class0/work0()V>");
    assertThat(view.lines()).hasSize(4).allMatch(ShgView.Line::primary);
  }

  @Test
  void aLargeGraphOpensOnThePathsToItsFindingsASmallOneOnEveryNode() {
    ShgView large = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(HOT_METHOD.id()), Options.DEFAULT);
    assertThat(large.show()).isEqualTo(Show.FINDINGS);
    assertThat(large.drawnNodes()).isEqualTo(5);
    assertThat(ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), Options.DEFAULT).show()).as("no finding: nothing to narrow to").isEqualTo(Show.ALL);
    SearchHistoryGraph small = Graphs.cpuHot("s");
    ShgView view = ShgView.of(small, Graphs.HYPOTHESES, List.of(3), Options.DEFAULT);
    assertThat(view.show()).isEqualTo(Show.ALL);
    assertThat(view.drawnNodes()).isEqualTo(small.nodes().size());
  }

  @Test
  void aCollapsedNodeHidesWhatHangsBelowItAndSaysHowMuch() {
    ShgNode cpu = LARGE.nodes().get(1);
    ShgView view = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), new Options(Show.ALL, Set.of(), 0, Set.of(cpu.id()), Set.of(), Set.of()));
    assertThat(drawn(view)).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    ShgView.Box box = view.boxes().get(1);
    assertThat(box.node()).isEqualTo(cpu);
    assertThat(box.collapsed()).isTrue();
    assertThat(box.collapsible()).isTrue();
    // every node hangs (first parent) from top: cpu_bound hides all but top and its four children
    assertThat(box.hidden()).isEqualTo(LARGE.nodes().size() - 5);
    assertThat(view.boxes().get(0).collapsed()).isFalse();
    assertThat(view.boxes().stream().filter(b -> b.node().id() == 2).findFirst().orElseThrow().collapsible()).as("a leaf").isFalse();
  }

  @Test
  void belowADepthNodesAreCollapsedUnlessExpanded() {
    ShgView depth1 = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), new Options(Show.ALL, Set.of(), 1, Set.of(), Set.of(), Set.of()));
    assertThat(drawn(depth1)).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    ShgView expanded = ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(), new Options(Show.ALL, Set.of(), 1, Set.of(), Set.of(1), Set.of()));
    Set<Integer> cpuKids = LARGE.children(1).stream().map(ShgNode::id).collect(Collectors.toSet());
    assertThat(expanded.drawnNodes() + expanded.groupedNodes()).isEqualTo(5 + cpuKids.size());
    assertThat(expanded.boxes()).filteredOn(b -> !b.isGroup() && cpuKids.contains(b.node().id()) && b.collapsible())
        .isNotEmpty().allMatch(ShgView.Box::collapsed);
  }

  @Test
  void edgesToNodesNotReadYetAreLeftOutAndUnknownIdsIgnored() {
    SearchHistoryGraph g = Graphs.cpuHot("s");
    List<ShgEdge> edges = new java.util.ArrayList<>(g.edges());
    edges.add(new ShgEdge(3, 99, Axis.WHERE, null, "later"));
    SearchHistoryGraph live = SearchHistoryGraph.fromJson(dev.bottlenose.model.json.Json.parse(dev.bottlenose.model.json.Json.write(
        java.util.Map.of("searchId", "s", "nodes", g.nodes().stream().map(ShgNode::toJson).toList(),
            "edges", edges.stream().map(ShgEdge::toJson).toList()))));
    ShgView view = ShgView.of(live, Graphs.HYPOTHESES, List.of(), new Options(Show.ALL, Set.of(), 0, Set.of(42), Set.of(), Set.of(7)));
    assertThat(view.drawnNodes()).isEqualTo(5);
    assertThat(view.lines()).hasSize(4);
  }

  @Test
  void showIsNamedByItsWord() {
    assertThat(Show.byWord("findings")).isEqualTo(Show.FINDINGS);
    assertThatThrownBy(() -> Show.byWord("some")).hasMessageContaining("all, true, findings or nodes");
    assertThatThrownBy(() -> new Options(null, Set.of(), -1, Set.of(), Set.of(), Set.of())).hasMessageContaining("depth");
  }
}
