package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.web.render.ShgView.Options;
import dev.bottlenose.web.render.ShgView.Show;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ShgLayoutTest {
  private static final SearchHistoryGraph LARGE = Graphs.large("big");

  private static ShgLayout layout(SearchHistoryGraph graph, Options options) {
    return ShgLayout.of(ShgView.of(graph, Graphs.HYPOTHESES, List.of(), options));
  }

  private static Map<String, ShgLayout.Placed> byKey(ShgLayout layout) {
    return layout.boxes().stream().collect(Collectors.toMap(p -> p.box().key(), Function.identity()));
  }

  /** Every node, every group opened: the most a user can have drawn. */
  private static ShgLayout everything() {
    Set<Integer> all = LARGE.nodes().stream().map(n -> n.id()).collect(Collectors.toSet());
    return layout(LARGE, new Options(Show.ALL, Set.of(), 0, Set.of(), Set.of(), all));
  }

  @Test
  void noTwoBoxesOverlapAndAllLieInsideTheDrawing() {
    for (ShgLayout layout : List.of(everything(), layout(LARGE, new Options(Show.ALL, Set.of(), 0, Set.of(), Set.of(), Set.of())))) {
      assertApartAndInside(layout);
    }
  }

  /**
   * A graph on which ELK's default node placement fails one of its own assertions (the tests run with assertions on,
   * so it throws here): laid out all the same, by the fallback placement, no two boxes overlapping.
   */
  @Test
  void aGraphElksDefaultNodePlacementFailsOnIsLaidOutAllTheSame() throws Exception {
    String json;
    try (var in = ShgLayoutTest.class.getResourceAsStream("elk-node-placement-assertion.json")) {
      json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    SearchHistoryGraph graph = SearchHistoryGraph.fromJson(dev.bottlenose.model.json.Json.parse(json));
    ShgLayout layout = layout(graph, Options.DEFAULT);
    assertThat(layout.boxes()).isNotEmpty();
    assertApartAndInside(layout);
  }

  private static void assertApartAndInside(ShgLayout layout) {
    List<ShgLayout.Placed> boxes = layout.boxes();
    assertThat(boxes).hasSize(layout.view().boxes().size());
    for (int i = 0; i < boxes.size(); i++) {
      ShgLayout.Placed a = boxes.get(i);
      assertThat(a.x()).isGreaterThanOrEqualTo(0);
      assertThat(a.y()).isGreaterThanOrEqualTo(0);
      assertThat(a.x() + a.width()).isLessThanOrEqualTo(layout.width());
      assertThat(a.y() + a.height()).isLessThanOrEqualTo(layout.height());
      for (int j = i + 1; j < boxes.size(); j++) {
        ShgLayout.Placed b = boxes.get(j);
        boolean apart = a.x() + a.width() <= b.x() || b.x() + b.width() <= a.x() || a.y() + a.height() <= b.y() || b.y() + b.height() <= a.y();
        assertThat(apart).as("%s and %s overlap", a.box().label(), b.box().label()).isTrue();
      }
    }
  }

  @Test
  void everyLineRunsLeftToRightFromItsParentsRightSideToItsChildsLeftSide() {
    ShgLayout layout = everything();
    Map<String, ShgLayout.Placed> at = byKey(layout);
    assertThat(layout.routes()).hasSize(LARGE.edges().size()).anyMatch(r -> !r.line().primary());
    for (ShgLayout.Route r : layout.routes()) {
      ShgLayout.Placed from = at.get(r.line().from());
      ShgLayout.Placed to = at.get(r.line().to());
      assertThat(to.x()).as("a child's layer after its parent's").isGreaterThan(from.x() + from.width());
      double[] start = r.points().get(0);
      double[] end = r.points().get(r.points().size() - 1);
      assertThat(start[0]).isCloseTo(from.x() + from.width(), within(0.5));
      assertThat(start[1]).isBetween(from.y(), from.y() + from.height());
      assertThat(end[0]).isCloseTo(to.x(), within(0.5));
      assertThat(end[1]).isBetween(to.y(), to.y() + to.height());
      for (int i = 1; i < r.points().size(); i++) {
        double[] p = r.points().get(i - 1);
        double[] q = r.points().get(i);
        assertThat(Math.abs(p[0] - q[0]) < 1e-6 || Math.abs(p[1] - q[1]) < 1e-6).as("orthogonal segments").isTrue();
      }
    }
  }

  @Test
  void aBoxIsAsWideAsItsLabelAndItsToggle() {
    ShgLayout layout = layout(LARGE, new Options(Show.ALL, Set.of(), 0, Set.of(), Set.of(), Set.of()));
    ShgLayout.Placed top = layout.boxes().get(0);
    assertThat(top.box().label()).isEqualTo("top \u00b7 whole program");
    assertThat(top.width()).isEqualTo(Math.ceil(NodeLabels.width(top.box().label())) + 2 * ShgLayout.PAD + ShgLayout.TOGGLE);
    assertThat(top.height()).isEqualTo(ShgLayout.BOX_HEIGHT);
    ShgLayout.Placed leaf = byKey(layout).get("2");
    assertThat(leaf.width()).isEqualTo(Math.ceil(NodeLabels.width(leaf.box().label())) + 2 * ShgLayout.PAD);
  }

  @Test
  void aLargeGraphIsDrawnNarrowerThanThePagesTreeWasAndItsFirstViewSmall() {
    // the page's d3.tree drew a column of 290 px per depth (the deepest node is 6 below the top) and a row of 24 px a node
    ShgLayout all = everything();
    System.out.printf("every node of %d: %.0f x %.0f%n", LARGE.nodes().size(), all.width(), all.height());
    assertThat(all.width()).isLessThanOrEqualTo(7 * 290);
    assertThat(all.height()).isLessThanOrEqualTo(24 * LARGE.nodes().size());
    ShgLayout grouped = layout(LARGE, new Options(Show.ALL, Set.of(), 0, Set.of(), Set.of(), Set.of()));
    System.out.printf("grouped: %d boxes, %.0f x %.0f%n", grouped.boxes().size(), grouped.width(), grouped.height());
    assertThat(grouped.height()).isLessThan(all.height() / 3);
    int hotMethod = LARGE.nodes().stream().filter(n -> n.focus().toString().equals("</Code/com.acme.p0/Class0/work0()V>"))
        .findFirst().orElseThrow().id();
    ShgLayout first = ShgLayout.of(ShgView.of(LARGE, Graphs.HYPOTHESES, List.of(hotMethod), Options.DEFAULT));
    System.out.printf("first view: %d boxes, %.0f x %.0f%n", first.boxes().size(), first.width(), first.height());
    assertThat(first.boxes()).hasSize(5);
    assertThat(first.width()).isLessThan(1_200);
    assertThat(first.height()).isLessThan(200);
  }

  @Test
  void aNodesBoxCarriesTheUnitItsValueIsWrittenWithAndItsTooltipTheValueInIt() {
    Map<?, ?> json = layout(Graphs.cpuHot("s1"), Options.DEFAULT).toJson();
    Map<?, ?> hot = ((List<?>) json.get("boxes")).stream().map(b -> (Map<?, ?>) b).filter(b -> "3".equals(b.get("key")))
        .findFirst().orElseThrow();
    assertThat(hot.get("unit")).isEqualTo("s per second");
    assertThat((String) hot.get("title")).contains("\ntrue  0.8 s per second (threshold 0.3)");
    Map<?, ?> top = ((List<?>) json.get("boxes")).stream().map(b -> (Map<?, ?>) b).filter(b -> "0".equals(b.get("key")))
        .findFirst().orElseThrow();
    assertThat(top.get("unit")).as("a virtual hypothesis: no value, no unit").isEqualTo("");
  }

  @Test
  void anEmptyGraphIsAnEmptyDrawing() {
    ShgLayout layout = layout(new SearchHistoryGraph("none"), Options.DEFAULT);
    assertThat(layout.boxes()).isEmpty();
    assertThat(layout.routes()).isEmpty();
  }
}
