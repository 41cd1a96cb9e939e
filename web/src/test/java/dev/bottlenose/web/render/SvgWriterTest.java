package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.NodeState;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgWriterTest {

  private static Document parse(String svg) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<Element> nodes(Document doc) {
    NodeList groups = doc.getElementsByTagName("g");
    List<Element> nodes = new java.util.ArrayList<>();
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      if (g.getAttribute("class").startsWith("node ")) {
        nodes.add(g);
      }
    }
    return nodes;
  }

  @Test
  void drawsEveryNodeOfASmallGraphInItsStatesColourWithThePagesLabels() throws Exception {
    String svg = SvgWriter.write(Graphs.saved("s1", "d1"));
    Document doc = parse(svg);
    assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
    List<Element> nodes = nodes(doc);
    assertThat(nodes).hasSize(5);
    Element hot = nodes.stream().filter(n -> n.getAttribute("data-id").equals("3")).findFirst().orElseThrow();
    assertThat(hot.getAttribute("class")).isEqualTo("node true");
    assertThat(hot.getElementsByTagName("text").item(0).getTextContent()).isEqualTo("cpu_bound \u00b7 Hot.spin()");
    assertThat(((Element) hot.getElementsByTagName("rect").item(0)).getAttribute("fill")).isEqualTo(NodeState.TRUE.colour());
    assertThat(hot.getElementsByTagName("title").item(0).getTextContent()).contains("</Code/com.acme/Hot/spin()V>")
        .contains("true  0.8 s per second (threshold 0.3)");
    assertThat(svg).contains("fill=\"" + NodeState.FALSE.colour() + "\"").contains(">cpu_bound \u00b7 package com.acme<");
    NodeList paths = doc.getElementsByTagName("path");
    List<Element> edges = new java.util.ArrayList<>();
    for (int i = 0; i < paths.getLength(); i++) {
      if (((Element) paths.item(i)).getAttribute("class").startsWith("edge")) {
        edges.add((Element) paths.item(i));
      }
    }
    assertThat(edges).hasSize(4);
    assertThat(edges).filteredOn(e -> e.getAttribute("class").equals("edge where"))
        .hasSize(2).allMatch(e -> e.getAttribute("stroke-dasharray").equals(ShgStyle.dash(dev.bottlenose.consultant.Axis.WHERE)));
    assertThat(edges).filteredOn(e -> e.getAttribute("class").equals("edge why")).hasSize(2).allMatch(e -> !e.hasAttribute("stroke-dasharray"));
  }

  @Test
  void aLargeSearchIsExportedAsThePageFirstShowsIt() throws Exception {
    ShgLayout all = ShgLayout.of(ShgView.of(Graphs.large("big"), Graphs.HYPOTHESES, List.of(), ShgView.Options.DEFAULT));
    String svg = SvgWriter.write(all, "search big");
    Document doc = parse(svg);
    int width = Integer.parseInt(doc.getDocumentElement().getAttribute("width"));
    assertThat(width).isEqualTo((int) Math.ceil(all.width())).isLessThan(2_030);
    assertThat(nodes(doc)).hasSize(all.boxes().size());
    assertThat(nodes(doc)).filteredOn(n -> n.getAttribute("class").equals("node false group")).isNotEmpty()
        .allMatch(n -> n.getElementsByTagName("text").item(0).getTextContent().matches("\\d+ false: .*"));
  }

  @Test
  void linesAreTheirRoutesPointByPoint() {
    assertThat(SvgWriter.path(List.of(new double[] {1, 2}, new double[] {10.25, 2}, new double[] {10.25, 30}))).isEqualTo("M1,2L10.3,2L10.3,30");
  }

  @Test
  void escapesMarkupInFocusAndReason() {
    assertThat(SvgWriter.escape("<init>()V & \"x\"")).isEqualTo("&lt;init&gt;()V &amp; &quot;x&quot;");
  }
}
