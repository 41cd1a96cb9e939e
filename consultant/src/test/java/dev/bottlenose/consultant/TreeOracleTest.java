package dev.bottlenose.consultant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import org.junit.jupiter.api.Test;

class TreeOracleTest {
  private final TreeOracle oracle = PlantedPrograms.oracle();

  @Test
  void packagesClassesAndMethodsAreContainedChildren() {
    assertThat(oracle.children(Hierarchy.CODE.root())).extracting(ResourceChild::child)
        .containsExactly(ResourcePath.parse("/Code/com.acme"), ResourcePath.parse("/Code/java.util"));
    assertThat(oracle.children(PlantedPrograms.SPIN.parent()))
        .containsExactly(new ResourceChild(PlantedPrograms.SPIN.parent(), PlantedPrograms.SPIN, ResourceChild.CONTAINS));
  }

  @Test
  void aMethodsChildrenAreItsCalleesNotItsExecutionForms() {
    ResourceTree tree = PlantedPrograms.tree();
    tree.put(Resource.of(PlantedPrograms.MAIN.child("c2"), "form"));
    TreeOracle withForms = PlantedPrograms.oracle(tree);

    assertThat(withForms.children(PlantedPrograms.MAIN)).containsExactly(
        new ResourceChild(PlantedPrograms.MAIN, PlantedPrograms.SPIN, ResourceChild.CALLS),
        new ResourceChild(PlantedPrograms.MAIN, PlantedPrograms.NAP, ResourceChild.CALLS));
    assertThat(withForms.children(PlantedPrograms.NAP)).isEmpty();
  }

  @Test
  void otherHierarchiesUseTheTree() {
    assertThat(oracle.children(Hierarchy.THREADS.root())).extracting(c -> c.child().toString())
        .containsExactly("/Threads/main", "/Threads/pool-1");
    assertThat(oracle.children(ResourcePath.parse("/Threads/nobody"))).isEmpty();
  }
}
