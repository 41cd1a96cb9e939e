package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SettingsTest {

  @Test
  void theDefaultsHoldParadynsThresholdsAndTiming() {
    Settings s = Settings.defaults();

    assertThat(s.number("cpu_bound.threshold")).isEqualTo(0.30);
    assertThat(s.number("sync_wait.threshold")).isEqualTo(0.20);
    assertThat(s.number("io_wait.threshold")).isEqualTo(0.20);
    assertThat(s.number("small_io_ops.threshold")).isEqualTo(4096);
    assertThat(s.number("hysteresis")).isEqualTo(0.05);
    assertThat(s.number("search.min_observation_seconds")).isEqualTo(1.0);
    assertThat(s.number("search.sufficient_seconds")).isEqualTo(6.0);
  }

  @Test
  void everyBuiltInHypothesisHasADefaultThreshold() {
    Settings s = Settings.defaults();

    assertThat(HypothesisCatalog.builtIn()).filteredOn(h -> !h.isVirtual())
        .allSatisfy(h -> assertThat(s.number(h.id() + ".threshold")).isEqualTo(h.threshold()));
  }

  @Test
  void everySettingIsDocumentedInTheReadme() throws Exception {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);

    assertThat(Settings.defaults().asMap().keySet()).allSatisfy(key -> assertThat(readme).contains("`" + key + "`"));
  }

  @Test
  void overridesWinAndBadNumbersChangeNothing() {
    Settings s = Settings.defaults().with("cpu_bound.threshold", "0.5");

    assertThat(s.number("cpu_bound.threshold")).isEqualTo(0.5);
    assertThatThrownBy(() -> s.with("budget.fraction", "5%")).hasMessage("setting: budget.fraction must be a number, is '5%'");
    assertThat(s.number("budget.fraction")).isEqualTo(0.05);
    assertThatThrownBy(() -> s.number("no.such.key")).hasMessage("missing setting no.such.key");
  }

  @Test
  void skippedHypothesesLeaveTheCatalogWithEverythingBelowThem() {
    HypothesisCatalog catalog = HypothesisCatalog.of(Settings.defaults().with("search.skip", "cpu_bound, io_wait"));

    assertThat(catalog.all()).extracting(Hypothesis::id)
        .contains("top", "sync_wait", "memory_pressure")
        .doesNotContain("cpu_bound", "method_call_overhead", "jit_compile_time", "io_wait", "small_io_ops");
    assertThatThrownBy(() -> HypothesisCatalog.of(Settings.defaults().with("search.skip", "cpu_bond")))
        .hasMessageStartingWith("search.skip: unknown hypothesis 'cpu_bond'; known: cpu_bound");
    assertThatThrownBy(() -> HypothesisCatalog.of(Settings.defaults().with("search.skip", "top")))
        .hasMessage("search.skip: the top-level hypothesis cannot be skipped");
  }
}
