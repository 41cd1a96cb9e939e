package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.consultant.SavedSearch.Stacks.Frame;
import dev.bottlenose.model.ResourcePath;
import java.util.List;
import org.junit.jupiter.api.Test;

class StacksThroughTest {
  private static final String ROOT = "/Code";
  private static final String RUN = "/Code/java.lang/Thread/run()V";
  private static final String SERVE = "/Code/com.acme/Server/serve()V";
  private static final String GET = "/Code/com.acme/Cache/get(Ljava/lang/Object;)Ljava/lang/Object;";
  private static final String PUT = "/Code/com.acme/Cache/put(Ljava/lang/Object;)V";
  private static final String HASH = "/Code/java.util/HashMap/hash(Ljava/lang/Object;)I";
  private static final String WALK = "/Code/com.acme.tree/Node/walk(I)V";
  private static final String IDLE = "/Code/com.acme/Server/idle()V";

  /**
   * 100 samples under Thread.run: serve (60: 10 on top, get 30 of which hash 20, put 20), get called directly
   * (15: 15 on top), idle (25: 25 on top).
   */
  private static final List<Frame> TREE = List.of(
      new Frame(-1, ROOT, 100, 0),
      new Frame(0, RUN, 100, 0),
      new Frame(1, SERVE, 60, 10),
      new Frame(2, GET, 30, 10),
      new Frame(3, HASH, 20, 20),
      new Frame(2, PUT, 20, 20),
      new Frame(1, GET, 15, 15),
      new Frame(1, IDLE, 25, 25));

  @Test
  void aMethodAtTwoDepthsKeepsBothSubtreesAndItsAncestorsOnlyTheirTotals() {
    StacksThrough.Kept kept = StacksThrough.of(TREE, ResourcePath.parse(GET));
    assertThat(kept.samples()).isEqualTo(45);
    assertThat(kept.frames()).containsExactly(
        new Frame(-1, ROOT, 45, 0),
        new Frame(0, RUN, 45, 0),
        new Frame(1, SERVE, 30, 0),
        new Frame(2, GET, 30, 10),
        new Frame(3, HASH, 20, 20),
        new Frame(1, GET, 15, 15));
  }

  @Test
  void underRecursionTheOutermostFrameCountsOnce() {
    List<Frame> recursive = List.of(
        new Frame(-1, ROOT, 10, 0),
        new Frame(0, WALK, 8, 1),
        new Frame(1, WALK, 7, 2),
        new Frame(2, WALK, 5, 5),
        new Frame(0, IDLE, 2, 2));
    StacksThrough.Kept kept = StacksThrough.of(recursive, ResourcePath.parse(WALK));
    assertThat(kept.samples()).isEqualTo(8);
    assertThat(kept.frames()).containsExactly(
        new Frame(-1, ROOT, 8, 0),
        new Frame(0, WALK, 8, 1),
        new Frame(1, WALK, 7, 2),
        new Frame(2, WALK, 5, 5));
  }

  @Test
  void codeNoStackReachesLeavesAnEmptyTree() {
    StacksThrough.Kept kept = StacksThrough.of(TREE, ResourcePath.parse("/Code/org.other/Thing/run()V"));
    assertThat(kept.samples()).isZero();
    assertThat(kept.frames()).isEmpty();
  }

  @Test
  void aClassKeepsTheStacksThroughAnyOfItsMethods() {
    StacksThrough.Kept kept = StacksThrough.of(TREE, ResourcePath.parse("/Code/com.acme/Cache"));
    assertThat(kept.samples()).isEqualTo(65);
    assertThat(kept.frames()).containsExactly(
        new Frame(-1, ROOT, 65, 0),
        new Frame(0, RUN, 65, 0),
        new Frame(1, SERVE, 50, 0),
        new Frame(2, GET, 30, 10),
        new Frame(3, HASH, 20, 20),
        new Frame(2, PUT, 20, 20),
        new Frame(1, GET, 15, 15));
  }

  @Test
  void aPackageKeepsItsOwnClassesNotThoseOfPackagesNamedBelowIt() {
    StacksThrough.Kept acme = StacksThrough.of(TREE, ResourcePath.parse("/Code/com.acme"));
    assertThat(acme.samples()).isEqualTo(100);
    assertThat(acme.frames()).hasSize(TREE.size());
    assertThat(acme.frames().get(2)).isEqualTo(new Frame(1, SERVE, 60, 10));
    assertThat(acme.frames().get(0)).as("the root's own samples are dropped").isEqualTo(new Frame(-1, ROOT, 100, 0));
    StacksThrough.Kept util = StacksThrough.of(TREE, ResourcePath.parse("/Code/java.util"));
    assertThat(util.samples()).isEqualTo(20);
    assertThat(util.frames()).extracting(Frame::method).containsExactly(ROOT, RUN, SERVE, GET, HASH);
    assertThat(StacksThrough.of(TREE, ResourcePath.parse("/Code/com")).frames()).isEmpty();
  }

  @Test
  void aMethodWithoutDescriptorIsEveryOverloadAndAFormStandsForItsMethod() {
    assertThat(StacksThrough.of(TREE, ResourcePath.parse("/Code/com.acme/Cache/get")).samples()).isEqualTo(45);
    assertThat(StacksThrough.of(TREE, ResourcePath.parse("/Code/com.acme/Cache/ge")).samples()).isZero();
    assertThat(StacksThrough.of(TREE, ResourcePath.parse(GET).child("interpreted")).samples()).isEqualTo(45);
  }

  @Test
  void onlyCodeBelowTheRootFilters() {
    assertThatThrownBy(() -> StacksThrough.of(TREE, ResourcePath.parse("/Code")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StacksThrough.of(TREE, ResourcePath.parse("/Threads/main")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
