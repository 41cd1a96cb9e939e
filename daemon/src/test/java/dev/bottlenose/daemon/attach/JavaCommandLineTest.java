package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class JavaCommandLineTest {

  @Test
  void findsTheMainClassAfterOptionsWithValues() {
    JavaCommandLine c = JavaCommandLine.parse(List.of("java", "-cp", "x.jar", "--add-opens", "a/b=ALL", "-Xss1m",
        "com.acme.Main", "arg"));
    assertThat(c.main()).isEqualTo("com.acme.Main");
    assertThat(c.options()).containsExactly("-cp", "--add-opens", "-Xss1m");
  }

  @Test
  void findsTheJarAndTheModule() {
    assertThat(JavaCommandLine.parse(List.of("java", "-jar", "app.jar", "x")).main()).isEqualTo("app.jar");
    assertThat(JavaCommandLine.parse(List.of("java", "-m", "m/com.acme.Main")).main()).isEqualTo("m/com.acme.Main");
    assertThat(JavaCommandLine.parse(List.of("java", "-version")).main()).isEmpty();
  }

  @Test
  void readsJavaVersions() {
    assertThat(JavaVersion.parse("17.0.15").feature()).isEqualTo(17);
    assertThat(JavaVersion.parse("25").feature()).isEqualTo(25);
    assertThat(JavaVersion.parse("26-ea").feature()).isEqualTo(26);
    assertThat(JavaVersion.parse("1.8.0_392").feature()).isEqualTo(8);
    assertThat(JavaVersion.parse("unknown").feature()).isZero();
  }
}
