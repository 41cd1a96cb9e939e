package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Focus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeLabelsTest {

  @Test
  void aFocusReadsInWordsThatNameEachPartsHierarchyAsThePageWritesIt() {
    assertThat(NodeLabels.focusWords(Focus.WHOLE_PROGRAM)).isEqualTo("whole program");
    assertThat(NodeLabels.partWords("/Code/dev.acme/HotMethodWorkload/burn()J")).isEqualTo("HotMethodWorkload.burn()");
    assertThat(NodeLabels.partWords("/Code/dev.acme/HotMethodWorkload")).isEqualTo("class HotMethodWorkload");
    assertThat(NodeLabels.partWords("/Code/dev.acme")).isEqualTo("package dev.acme");
    assertThat(NodeLabels.partWords("/Threads/main/main")).isEqualTo("thread main");
    assertThat(NodeLabels.partWords("/Threads/request")).isEqualTo("pool request");
    assertThat(NodeLabels.partWords("/SyncObjects/monitors/com.acme.AuditLog")).isEqualTo("monitor AuditLog");
    assertThat(NodeLabels.partWords("/SyncObjects/locks")).isEqualTo("all locks");
    assertThat(NodeLabels.partWords("/Memory/byte[]")).isEqualTo("objects of byte[]");
    assertThat(NodeLabels.partWords("/IO/file/tmp/x")).isEqualTo("file tmp/x");
    assertThat(NodeLabels.partWords("/IO/file")).isEqualTo("all files");
    assertThat(NodeLabels.partWords("/Code")).isEqualTo("/Code");
    assertThat(NodeLabels.focusWords(Focus.parse("</Code/dev.acme/Hot/spin()V, /Threads/main/main>"))).isEqualTo("Hot.spin() \u00b7 thread main");
  }

  @Test
  void longLabelsAreClippedAndWidthsFollowTheFontsMetrics() {
    String clipped = NodeLabels.clip("x".repeat(60));
    assertThat(clipped).hasSize(NodeLabels.MAX_CHARS).endsWith("\u2026");
    assertThat(NodeLabels.width("")).isZero();
    assertThat(NodeLabels.width("m")).isGreaterThan(NodeLabels.width("i") * 3);
    assertThat(NodeLabels.width("cpu_bound \u00b7 whole program")).isBetween(100.0, 180.0);
  }

  @Test
  void aLongLabelIsCutInTheMiddleSoThreadsOfOneMethodKeepDistinctLabels() {
    List<String> labels = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      Focus f = Focus.parse("</Code/diag.twocauses/PriceService/price(DDDI)D, /Threads/quote/quote-" + t + ">");
      assertThat(("cpu_bound \u00b7 " + NodeLabels.focusWords(f)).length()).isGreaterThan(NodeLabels.MAX_CHARS);
      String label = NodeLabels.of("cpu_bound", f);
      assertThat(label).hasSizeLessThanOrEqualTo(NodeLabels.MAX_CHARS)
          .startsWith("cpu_bound \u00b7 PriceSe").contains("\u2026").endsWith(" \u00b7 thread quote-" + t);
      labels.add(label);
    }
    assertThat(labels).doesNotHaveDuplicates();
    assertThat(labels.get(0)).isEqualTo("cpu_bound \u00b7 PriceServ\u2026e.price() \u00b7 thread quote-0");
    // one long part: cut in its middle, its hierarchy word and its end kept
    String monitor = NodeLabels.of("sync_wait",
        Focus.parse("</SyncObjects/monitors/com.acme.AVeryLongMonitorClassNameThatGoesOnAndOnForeverAndEver7>"));
    assertThat(monitor).hasSize(NodeLabels.MAX_CHARS).startsWith("sync_wait \u00b7 monitor AVery").endsWith("Ever7");
    assertThat(NodeLabels.of("top", Focus.WHOLE_PROGRAM)).isEqualTo("top \u00b7 whole program");
  }
}
