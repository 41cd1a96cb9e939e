package dev.bottlenose.web.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArgsTest {

  @Test
  void searchOptionsAreRead() {
    Args a = Args.parse("search", List.of("--pid", "12", "--pid=13", "--budget", "5%", "--max-time", "1.5m", "--json"),
        SearchCommand.VALUED, SearchCommand.FLAGS);
    assertThat(a.pids()).containsExactly(12L, 13L);
    assertThat(a.budget(0.1)).isEqualTo(0.05);
    assertThat(a.duration("max-time", Duration.ZERO)).isEqualTo(Duration.ofSeconds(90));
    assertThat(a.has("json")).isTrue();
    assertThat(Args.parse("search", List.of("--budget", "0.2"), SearchCommand.VALUED, SearchCommand.FLAGS).budget(0.1)).isEqualTo(0.2);
  }

  @Test
  void badValuesAreUsageErrorsNamingThem() {
    assertThatThrownBy(() -> parse("--budget", "80%").budget(0.05)).hasMessageContaining("--budget 80% is outside (0, 50%]");
    assertThatThrownBy(() -> parse("--budget", "lots").budget(0.05)).hasMessageContaining("--budget 'lots' is not a share of CPU");
    assertThatThrownBy(() -> parse("--max-time", "60").duration("max-time", null)).hasMessageContaining("'60' is not a duration");
    assertThatThrownBy(() -> parse("--pid", "x").pids()).hasMessageContaining("--pid 'x' is not a process id");
    assertThatThrownBy(() -> parse("--colour", "red")).hasMessageContaining("unknown option --colour for 'search'");
    assertThatThrownBy(() -> parse("--json=yes")).hasMessageContaining("--json takes no value");
    assertThatThrownBy(() -> parse("--pid")).hasMessageContaining("--pid needs a value");
    assertThatThrownBy(() -> SearchCommand.options(parse("--set", "cpu_bound.threshold=high"), "s1"))
        .hasMessageContaining("cpu_bound.threshold must be a number");
    assertThatThrownBy(() -> SearchCommand.options(parse("--skip", "lunch"), "s1"))
        .hasMessageContaining("unknown hypothesis 'lunch'");
    assertThat(SearchCommand.options(parse("--skip", "io_wait", "--skip", "sync_wait"), "s1").settings().text("search.skip"))
        .isEqualTo("io_wait,sync_wait");
  }

  @Test
  void usageErrorsExitWithTwoAndSayWhy() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = Main.run(List.of("search", "--budget", "5%"), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("bottlenose search: give the JVM to search with --pid N");
    assertThat(Main.run(List.of("frobnicate"), new PrintStream(out), new PrintStream(err))).isEqualTo(2);
    assertThat(Main.run(List.of("help"), new PrintStream(out), new PrintStream(err))).isZero();
    err.reset();
    assertThat(Main.run(List.of("serve", "--token", "s3cret-s3cret-s3cret"), new PrintStream(out), new PrintStream(err, true, StandardCharsets.UTF_8)))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("bottlenose serve: --token is refused")
        .contains("/proc/PID/cmdline").contains("--token-file FILE").contains("BOTTLENOSE_WEB_TOKEN");
  }

  private static Args parse(String... words) {
    return Args.parse("search", List.of(words), SearchCommand.VALUED, SearchCommand.FLAGS);
  }
}
