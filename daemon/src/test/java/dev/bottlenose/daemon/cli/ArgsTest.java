package dev.bottlenose.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArgsTest {
  private static final Set<String> KNOWN = Set.of("pid", "depth", "for");

  @Test
  void readsOptionsPositionalsAndTheCommandLineAfterDashes() {
    Args a = Args.withCommandLine("daemon", List.of("--pid", "12", "/Code", "--for", "2s", "--", "java", "--pid"),
        KNOWN);
    assertThat(a.pid()).isEqualTo(12);
    assertThat(a.positional()).containsExactly("/Code");
    assertThat(a.duration("for", Duration.ZERO)).isEqualTo(Duration.ofSeconds(2));
    assertThat(a.rest()).containsExactly("java", "--pid");
  }

  @Test
  void namesTheUnknownOption() {
    assertThatThrownBy(() -> Args.parse("resources", List.of("--pdi", "1"), KNOWN)).isInstanceOf(UsageException.class)
        .hasMessage("unknown option --pdi for 'resources'; it takes --depth, --for, --pid");
  }

  @Test
  void refusesMissingRepeatedAndMalformedValues() {
    assertThatThrownBy(() -> Args.parse("x", List.of("--pid"), KNOWN)).hasMessage("option --pid needs a value");
    assertThatThrownBy(() -> Args.parse("x", List.of("--pid", "1", "--pid", "2"), KNOWN))
        .hasMessage("option --pid is given twice");
    assertThatThrownBy(() -> Args.parse("x", List.of("--pid", "abc"), KNOWN).pid())
        .hasMessage("--pid must be a positive whole number, not 'abc'");
    assertThatThrownBy(() -> Args.parse("x", List.of("--depth", "two"), KNOWN).intOption("depth", 1))
        .hasMessage("--depth must be a whole number, not 'two'");
    assertThatThrownBy(() -> Args.parse("x", List.of(), KNOWN).pid()).hasMessage("'x' needs --pid");
  }

  @Test
  void onlyTheDaemonTakesACommandLine() {
    assertThatThrownBy(() -> Args.parse("ledger", List.of("--", "java"), KNOWN))
        .hasMessage("'ledger' takes no command line after --");
  }

  @Test
  void refusesExtraPositionals() {
    Args a = Args.parse("ledger", List.of("surprise"), KNOWN);
    assertThatThrownBy(() -> a.atMostPositional(0)).hasMessage("'ledger' got unexpected argument 'surprise'");
  }
}
