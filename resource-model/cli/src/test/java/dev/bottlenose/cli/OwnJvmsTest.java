package dev.bottlenose.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OwnJvmsTest {
  @Test
  void theToolsJarsAndMainsAreOurs() {
    assertThat(OwnJvms.isOwn("/opt/bottlenose/lib/bottlenose-daemon-all.jar daemon --pid 12 --id vm-12")).isTrue();
    assertThat(OwnJvms.isOwn("web/target/bottlenose-web-all.jar search --pid 12")).isTrue();
    assertThat(OwnJvms.isOwn("dev.bottlenose.daemon.cli.Main daemon --pid 3")).isTrue();
  }

  @Test
  void everythingElseIsATarget() {
    assertThat(OwnJvms.isOwn("com.acme.Server --port 8080")).isFalse();
    assertThat(OwnJvms.isOwn("/srv/app/acme-bottlenose-web-all.jar.bak")).isFalse();
    assertThat(OwnJvms.isOwn("dev.bottlenose.tests.workloads.Busy")).isFalse();
    assertThat(OwnJvms.isOwn("")).isFalse();
    assertThat(OwnJvms.isOwn(null)).isFalse();
  }
}
