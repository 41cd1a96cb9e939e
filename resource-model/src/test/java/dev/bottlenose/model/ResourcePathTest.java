package dev.bottlenose.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResourcePathTest {

  @Test
  void descriptorSlashesAndSemicolonsAreLiteral() {
    ResourcePath p = ResourcePath.parse("/Code/com.acme/Sim/run(Ljava/lang/String;[[I)Ljava/util/List;");

    assertThat(p.hierarchy()).isEqualTo(Hierarchy.CODE);
    assertThat(p.segments()).containsExactly("com.acme", "Sim", "run(Ljava/lang/String;[[I)Ljava/util/List;");
    assertThat(p).hasToString("/Code/com.acme/Sim/run(Ljava/lang/String;[[I)Ljava/util/List;");
  }

  @Test
  void formSegmentFollowsTheDescriptor() {
    ResourcePath p = ResourcePath.parse("/Code/com.acme/Sim/step(I)V/c2");

    assertThat(p.segments()).containsExactly("com.acme", "Sim", "step(I)V", "c2");
    assertThat(MethodRef.fromPath(p)).isEqualTo(new MethodRef("com.acme.Sim", "step", "(I)V"));
  }

  @Test
  void javaNamesAreWrittenWithoutEscapes() {
    assertThat(CodePaths.method("com.acme.Outer$Inner", "<init>", "()V")).hasToString("/Code/com.acme/Outer$Inner/<init>()V");
    assertThat(CodePaths.method("Main", "lambda$main$0", "([Ljava/lang/String;)V"))
        .hasToString("/Code/(default)/Main/lambda$main$0([Ljava/lang/String;)V");
    assertThat(CodePaths.method("pkg.Ünïcødé", "日本語", "()J")).hasToString("/Code/pkg/Ünïcødé/日本語()J");
    assertThat(ResourcePath.of(Hierarchy.THREADS, "pool-1 worker 2")).hasToString("/Threads/pool-1 worker 2");
  }

  @Test
  void hiddenClassSlashIsEscaped() {
    ResourcePath p = CodePaths.ofClass("com.acme.Foo$$Lambda/0x0000000800c03000");

    assertThat(p).hasToString("/Code/com.acme/Foo$$Lambda\\/0x0000000800c03000");
    assertThat(ResourcePath.parse(p.toString())).isEqualTo(p);
    assertThat(CodePaths.className(p)).isEqualTo("com.acme.Foo$$Lambda/0x0000000800c03000");
  }

  @Test
  void methodNameWithoutDescriptorNamesAllOverloads() {
    ResourcePath p = CodePaths.method("a.B", "<clinit>", null);

    assertThat(p).hasToString("/Code/a/B/<clinit>");
    assertThat(ResourcePath.parse("/Code/a/B/<clinit>")).isEqualTo(p);
    assertThat(MethodRef.fromPath(p).descriptor()).isNull();
  }

  @Test
  void angleBracketsThatDoNotPairUpAreEscaped() {
    ResourcePath p = ResourcePath.of(Hierarchy.MEMORY, "List<Map<K,V>>", "a>b", "x<", "><");

    assertThat(p).hasToString("/Memory/List<Map<K\\,V>>/a\\>b/x\\</\\>\\<");
    assertThat(ResourcePath.parse(p.toString())).isEqualTo(p);
  }

  @Test
  void parenthesisThatDoesNotStartADescriptorIsEscaped() {
    ResourcePath p = ResourcePath.of(Hierarchy.CODE, "a", "B", "odd(name");

    assertThat(p).hasToString("/Code/a/B/odd\\(name");
    assertThat(ResourcePath.parse(p.toString())).isEqualTo(p);
    assertThat(ResourcePath.of(Hierarchy.THREADS, "odd(name")).hasToString("/Threads/odd(name");
  }

  @Test
  void fileSegmentKeepsItsSlashes() {
    ResourcePath p = ResourcePath.parse("/IO/file//var/log/app, 1.log");

    assertThat(p.segments()).containsExactly("file", "/var/log/app, 1.log");
    assertThat(p).hasToString("/IO/file//var/log/app\\, 1.log");
    assertThat(ResourcePath.parse("/IO/socket/127.0.0.1:8080").segments()).containsExactly("socket", "127.0.0.1:8080");
  }

  @Test
  void fileHasNoChildren() {
    assertThatThrownBy(() -> ResourcePath.of(Hierarchy.IO, "file", "/tmp/a", "b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("/IO/file");
  }

  @Test
  void emptyAndEdgeWhitespaceSegmentsAreEscaped() {
    ResourcePath p = ResourcePath.of(Hierarchy.THREADS, "", " a ", "\"\"", "x>", "a,b\\c");

    assertThat(p).hasToString("/Threads/\"\"/\\ a\\ /\\\"\"/x\\>/a\\,b\\\\c");
    assertThat(ResourcePath.parse(p.toString())).isEqualTo(p);
  }

  @Test
  void rootsParse() {
    for (Hierarchy h : Hierarchy.values()) {
      assertThat(ResourcePath.parse("/" + h.rootName())).isEqualTo(h.root());
      assertThat(h.root().isRoot()).isTrue();
    }
  }

  @Test
  void orderAndContainment() {
    ResourcePath cls = ResourcePath.parse("/Code/a/B");
    ResourcePath m = ResourcePath.parse("/Code/a/B/m()V");

    assertThat(cls.contains(m)).isTrue();
    assertThat(m.contains(cls)).isFalse();
    assertThat(List.of(m, cls, Hierarchy.THREADS.root(), Hierarchy.CODE.root()).stream().sorted())
        .containsExactly(Hierarchy.CODE.root(), cls, m, Hierarchy.THREADS.root());
    assertThat(m.parent()).isEqualTo(cls);
  }
}
