package dev.bottlenose.daemon.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MethodFocusTest {

  @Test
  void readsABarePathOrAFocus() {
    assertThat(MethodFocus.parse("/Code/com.acme/Sim/step()V")).hasToString("/Code/com.acme/Sim/step()V");
    assertThat(MethodFocus.parse(" </Code/com.acme/Sim/step()V> ")).hasToString("/Code/com.acme/Sim/step()V");
    assertThat(MethodFocus.parse("/Code/com.acme/Sim/step()V/c2")).hasToString("/Code/com.acme/Sim/step()V");
    assertThat(MethodFocus.parse("/Code/com.acme/Sim/step")).hasToString("/Code/com.acme/Sim/step");
  }

  @Test
  void malformedTextNamesTheProblem() {
    assertThatThrownBy(() -> MethodFocus.parse("/Code/a/B/step(I")).isInstanceOf(SessionException.class)
        .hasMessageStartingWith("malformed focus:").hasMessageContaining("descriptor");
    assertThatThrownBy(() -> MethodFocus.parse("/Cod/x")).hasMessageContaining("/Code");
    assertThatThrownBy(() -> MethodFocus.parse("")).hasMessageStartingWith("no focus given");
    assertThatThrownBy(() -> MethodFocus.parse("/Code")).hasMessageContaining("names the root, not a method");
    assertThatThrownBy(() -> MethodFocus.parse("/Code/a")).hasMessageContaining("names a package, not a method");
  }
}
