package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompiledBeforeAttachTest {
  private static final String GET = "com.acme.Cache.get(Ljava/lang/Object;)Ljava/lang/Object;";
  private static final String PUT = "com.acme.Cache.put(Ljava/lang/Object;)V";
  private static final String GONE = "com.acme.Old.gone()V";
  /** Compiler.codelist's lines, as HotSpot 17 and 25 print them: id, level, state (0: in use), method, addresses. */
  private static final String CODELIST = """
      12 4 0 %s [0x00007fb140ec7010, 0x00007fb140ec71a0 - 0x00007fb140ec7270]
      9 3 0 %s [0x00007fb140ec7310, 0x00007fb140ec74c0 - 0x00007fb140ec7718]
      13 3 0 %s [0x00007fb140ec7790, 0x00007fb140ec7920 - 0x00007fb140ec79f0]
      14 4 1 %s [0x00007fb140ec7a90, 0x00007fb140ec7c20 - 0x00007fb140ec7e20]
      not a line of code
      """.formatted(GET, GET, PUT, GONE);

  @Test
  void theFirstCompilationPerMethodAndLevelUpToWhatItHadIsTheAttachsWake() {
    CompiledBeforeAttach before = CompiledBeforeAttach.parse(CODELIST);

    assertThat(before.methods()).as("code in use only").isEqualTo(2);
    assertThat(before.isRecompile(GET, 3, 100)).as("back through C1 after its C2 code was thrown away").isTrue();
    assertThat(before.isRecompile(GET, 3, 100)).as("the same compilation asked again").isTrue();
    assertThat(before.isRecompile(GET, 4, 101)).as("and C2 again").isTrue();
    assertThat(before.isRecompile(GET, 4, 102)).as("compiled once more: the program's own doing").isFalse();
    assertThat(before.isRecompile(PUT, 4, 103)).as("beyond the level it had: the program's warm-up").isFalse();
    assertThat(before.isRecompile(PUT, 3, 104)).isTrue();
    assertThat(before.isRecompile(GONE, 4, 105)).as("its code was no longer in use").isFalse();
    assertThat(before.isRecompile("com.acme.New.run()V", 1, 106)).isFalse();
    assertThat(before.isRecompile(PUT, -1, 107)).as("a compilation of unknown level").isFalse();
  }

  @Test
  void nothingReadMeansNothingExcluded() {
    assertThat(CompiledBeforeAttach.parse("")).isSameAs(CompiledBeforeAttach.NONE);
    assertThat(CompiledBeforeAttach.parse("Unknown diagnostic command\n").methods()).isZero();
    assertThat(CompiledBeforeAttach.NONE.isRecompile(GET, 4, 1)).isFalse();
  }
}
