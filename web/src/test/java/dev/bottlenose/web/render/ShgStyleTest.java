package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.Axis;
import dev.bottlenose.consultant.NodeState;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShgStyleTest {

  @Test
  void theLegendCarriesEveryStatesColourAndEveryLinesStyle() {
    Map<?, ?> states = (Map<?, ?>) ShgStyle.legend().get("states");
    for (NodeState s : NodeState.values()) {
      assertThat(states.get(s.word())).isEqualTo(s.colour());
    }
    Map<?, ?> where = (Map<?, ?>) ((Map<?, ?>) ShgStyle.legend().get("lines")).get("where");
    assertThat(where.get("dash")).isEqualTo(ShgStyle.dash(Axis.WHERE)).isNotNull();
    assertThat(ShgStyle.dash(Axis.WHY)).as("why-lines solid").isNull();
    assertThat(ShgStyle.stroke(Axis.WHY)).isNotEqualTo(ShgStyle.stroke(Axis.WHERE));
  }

  @Test
  void thePagesStyleSheetColoursTheStatesAsNodeStateDoes() throws Exception {
    String css = css();
    for (NodeState s : NodeState.values()) {
      assertThat(css).contains(".state-" + s.word() + " { background: " + s.colour() + ";");
    }
  }

  @Test
  void longTextWrapsBetweenWordsAndBreaksOnlyWhatCannotFit() throws Exception {
    String css = css();
    assertThat(css).as("break-all cuts words anywhere").doesNotContain("break-all");
    assertThat(css).contains(".node-detail dd { margin: 0; overflow-wrap: anywhere; }");
    assertThat(css).containsPattern("\\.flame-info, \\.flame-picked \\{[^}]*overflow-wrap: anywhere;");
  }

  private static String css() throws Exception {
    try (InputStream in = ShgStyleTest.class.getResourceAsStream("/webroot/css/app.css")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
