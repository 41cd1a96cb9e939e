package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.NodeState;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgWriterTest {

  @Test
  void drawsEveryNodeAndEdgeAsWellFormedSvg() throws Exception {
    String svg = SvgWriter.write(Graphs.cpuHot("s1"));
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
    NodeList groups = doc.getElementsByTagName("g");
    assertThat(groups.getLength()).isEqualTo(5);
    assertThat(doc.getElementsByTagName("line").getLength()).isEqualTo(4);
    assertThat(((Element) groups.item(3)).getAttribute("class")).isEqualTo("node true");
    assertThat(svg).contains("spin()V").contains("0.800 / 0.300").contains("fill=\"" + NodeState.TRUE.colour() + "\"").contains("fill=\"" + NodeState.FALSE.colour() + "\"");
  }

  @Test
  void escapesMarkupInFocusAndReason() {
    assertThat(SvgWriter.escape("<init>()V & \"x\"")).isEqualTo("&lt;init&gt;()V &amp; &quot;x&quot;");
  }

  @Test
  void layersFollowRefinementDepthAndChildrenStayUnderTheirParents() {
    ShgLayout layout = ShgLayout.of(Graphs.cpuHot("s1"));
    assertThat(layout.box(0).layer()).isZero();
    assertThat(layout.box(1).layer()).isEqualTo(1);
    assertThat(layout.box(4).layer()).isEqualTo(1);
    assertThat(layout.box(3).layer()).isEqualTo(3);
    assertThat(layout.box(1).x()).isLessThan(layout.box(4).x());
    assertThat(layout.box(3).y()).isGreaterThan(layout.box(2).y());
    assertThat(layout.width()).isEqualTo(2 * ShgLayout.MARGIN + 2 * ShgLayout.WIDTH + ShgLayout.GAP_X);
  }
}
