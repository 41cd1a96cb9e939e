package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompiledBeforeAttachTest {
  private static final String GET = "com.acme.Cache.get(Ljava/lang/Object;)Ljava/lang/Object;";
  private static final String PUT = "com.acme.Cache.put(Ljava/lang/Object;)V";
  private static final String GONE = "com.acme.Old.gone()V";
  /** A JDK method, and one of the program's that the JIT had not compiled before the attach. */
  private static final String MAP = "java.util.HashMap.merge(Ljava/lang/Object;)V";
  private static final String OWN = "com.acme.Report.render()V";
  private static final long MS = 1_000_000;
  /** Compiler.codelist's lines, as HotSpot 17 and 25 print them: id, level, state (0: in use), method, addresses. */
  private static final String CODELIST = """
      12 4 0 %s [0x00007fb140ec7010, 0x00007fb140ec71a0 - 0x00007fb140ec7270]
      9 3 0 %s [0x00007fb140ec7310, 0x00007fb140ec74c0 - 0x00007fb140ec7718]
      13 3 0 %s [0x00007fb140ec7790, 0x00007fb140ec7920 - 0x00007fb140ec79f0]
      14 4 1 %s [0x00007fb140ec7a90, 0x00007fb140ec7c20 - 0x00007fb140ec7e20]
      not a line of code
      """.formatted(GET, GET, PUT, GONE);

  @Test
  void theFirstCompilationsPerLevelOfAMethodCompiledBeforeAsManyAsItHadCodeAreTheAttachsWake() {
    CompiledBeforeAttach before = CompiledBeforeAttach.parse(CODELIST);

    assertThat(before.methods()).as("code in use only").isEqualTo(2);
    assertThat(before.isRecompile(GET, 3, false, 100)).as("back through C1 after its C2 code was thrown away").isTrue();
    assertThat(before.isRecompile(GET, 3, false, 100)).as("the same compilation asked again").isTrue();
    assertThat(before.isRecompile(GET, 4, false, 101)).as("and C2 again").isTrue();
    assertThat(before.isRecompile(GET, 4, false, 102)).as("as many times as it had code").isTrue();
    assertThat(before.isRecompile(GET, 4, false, 110)).as("compiled once more: the program's own doing").isFalse();
    assertThat(before.isRecompile(GET, 4, false, 102)).as("the second asked again").isTrue();
    assertThat(before.isRecompile(GET, 4, true, 103)).as("its first on-stack replacements at that level").isTrue();
    assertThat(before.isRecompile(GET, 4, true, 104)).isTrue();
    assertThat(before.isRecompile(GET, 4, true, 111)).as("and a third one").isFalse();
    assertThat(before.isRecompile(PUT, 3, false, 105)).isTrue();
    assertThat(before.isRecompile(PUT, 4, false, 106))
        .as("still profiling in C1 before: its C2 compilation after being thrown back is the wake too").isTrue();
    assertThat(before.isRecompile(PUT, 4, false, 112)).as("it had one piece of code; a second is the program's")
        .isFalse();
    assertThat(before.isRecompile(GONE, 4, false, 107)).as("its code was no longer in use").isFalse();
    assertThat(before.isRecompile("com.acme.New.run()V", 1, false, 108)).as("never compiled before").isFalse();
    assertThat(before.isRecompile(PUT, -1, false, 109)).as("a compilation of unknown level").isFalse();
  }

  @Test
  void jfrsNamesOfHiddenClassesAreTheCodeListsOnJdk17And25() {
    // as HotSpot 17 and 25 list them (the last a lambda of the JDK's class-data archive)
    CompiledBeforeAttach before = CompiledBeforeAttach.parse("""
        4133 3 0 acme.Exchange$$Lambda$210/0x00007f893418f210.apply(Ljava/lang/Object;)Ljava/lang/Object; [0x1]
        1553 4 0 L$$Lambda/0x0000000012150210.applyAsInt(I)I [0x00007fe61ff34108, 0x00007fe61ff34200 - 0x00007fe61ff3]
        213 3 0 java.util.regex.CharPredicates$$Lambda/0x800000025.is(I)Z [0x1, 0x2 - 0x3]
        """);

    String jdk17 = CompiledBeforeAttach.method("acme.Exchange$$Lambda$210+0x00007f893418f210.156470654", "apply",
        "(Ljava/lang/Object;)Ljava/lang/Object;");
    assertThat(jdk17)
        .isEqualTo("acme.Exchange$$Lambda$210/0x00007f893418f210.apply(Ljava/lang/Object;)Ljava/lang/Object;");
    assertThat(before.isRecompile(jdk17, 4, false, 1)).isTrue();
    assertThat(before.isRecompile(CompiledBeforeAttach.method("L$$Lambda.0x0000000012150210", "applyAsInt", "(I)I"), 4,
        false, 2)).isTrue();
    assertThat(before.isRecompile(CompiledBeforeAttach.method("java.util.regex.CharPredicates$$Lambda.0x800000025",
        "is", "(I)Z"), 4, false, 3)).isTrue();
    assertThat(CompiledBeforeAttach.method("com.acme.Cache", "get", "()V")).as("a class of its own name")
        .isEqualTo("com.acme.Cache.get()V");
  }

  @Test
  void theJdksMethodsAndMethodsCompiledBeforeCompiledWhileTheWakeMakesMostOfTheJitsWorkAreTheWakeTheProgramsOwnAreNot() {
    CompiledBeforeAttach before = CompiledBeforeAttach.parse(CODELIST);
    String map = MAP;
    String own = OWN;

    assertThat(before.isWake(map, true, 4, false, 1, 1_000, 5 * MS)).as("no wake seen yet").isFalse();
    assertThat(before.isWake(GET, false, 3, false, 2, 2_000, 50 * MS)).as("a recompilation").isTrue();
    assertThat(before.isWake(map, true, 4, false, 3, 2_100, 5 * MS)).as("the JDK's, while the wake goes on").isTrue();
    assertThat(before.isWake(map, true, 4, false, 3, 2_100, 5 * MS)).as("asked again").isTrue();
    assertThat(before.isWake(own, false, 4, false, 4, 2_200, 5 * MS)).as("the program's own code").isFalse();
    assertThat(before.isWake(GET, false, 4, true, 6, 2_300, 20 * MS)).isTrue();
    assertThat(before.isWake(GET, false, 4, true, 7, 2_350, 20 * MS)).isTrue();
    assertThat(before.isWake(GET, false, 4, true, 8, 2_400, 20 * MS))
        .as("a method compiled before, replaced on the stack once more than the code list had code").isTrue();
    assertThat(before.isWake(map, true, 2, false, 5, 9_000, 5 * MS))
        .as("7 s on, the recompilations have faded: over").isFalse();
    assertThat(before.isWake(GET, false, 4, true, 9, 9_100, 20 * MS))
        .as("and compiled again after that: the program's own doing").isFalse();
  }

  @Test
  void aProgramCompilingCodeOfItsOwnAllTheTimeKeepsItsJdkCompilationsThroughATrickleOfRecompilations() {
    CompiledBeforeAttach before = CompiledBeforeAttach.parse(CODELIST);
    for (int i = 0; i < 20; i++) {
      before.isWake("jdk.proxy1.$Proxy" + i + ".run()V", true, 3, false, 100 + i, 1_000 + 50L * i, 20 * MS);
    }
    assertThat(before.isWake(PUT, false, 3, false, 200, 2_000, 100 * MS)).as("a late recompilation").isTrue();
    assertThat(before.isWake("jdk.proxy1.$Proxy99.run()V", true, 3, false, 201, 2_010, 20 * MS))
        .as("the proxies' 400 ms in the last second outweigh its 100").isFalse();
  }

  @Test
  void nothingReadMeansNothingExcluded() {
    assertThat(CompiledBeforeAttach.parse("")).isSameAs(CompiledBeforeAttach.NONE);
    assertThat(CompiledBeforeAttach.parse("Unknown diagnostic command\n").methods()).isZero();
    assertThat(CompiledBeforeAttach.NONE.isRecompile(GET, 4, false, 1)).isFalse();
    assertThat(CompiledBeforeAttach.NONE.isWake("java.util.HashMap.get()V", true, 4, false, 2, 0, 10)).isFalse();
  }

  @Test
  void aMethodCompiledBeforeRunsInterpretedInTheWakeUntilTheJitCompilesItAgain() {
    CompiledBeforeAttach before = CompiledBeforeAttach.parse(CODELIST);
    String map = MAP;
    String own = OWN;

    assertThat(before.interpretedInWake(GET, false, 1_000)).as("its code thrown away by the attach").isTrue();
    assertThat(before.interpretedInWake(own, false, 1_000)).as("never compiled before: the program's").isFalse();
    assertThat(before.interpretedInWake(map, true, 1_000)).as("the JDK's, no wake seen yet").isFalse();
    before.isWake(GET, false, 4, true, 7, 1_500, 50 * MS);
    assertThat(before.interpretedInWake(GET, false, 1_600)).as("an on-stack replacement only").isTrue();
    assertThat(before.interpretedInWake(map, true, 1_600)).as("the JDK's while the wake goes on").isTrue();
    before.isWake(GET, false, 3, false, 8, 2_000, 50 * MS);
    assertThat(before.interpretedInWake(GET, false, 2_100)).as("compiled again: interpreted once more is the program's")
        .isFalse();
    assertThat(before.interpretedInWake(map, true, 60_000)).as("the JDK's once the wake has passed").isFalse();
    assertThat(CompiledBeforeAttach.NONE.interpretedInWake(GET, false, 1_000)).as("nothing known").isFalse();
  }
}
