package dev.bottlenose.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LoggingTest {
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @AfterEach
  void quietAgain() {
    Logging.configure(false, System.err);
  }

  @Test
  void quietByDefaultOnlyOurWarningsAndEveryonesSevereRecordsPrint() {
    Logging.configure(false, new PrintStream(err, true, StandardCharsets.UTF_8));
    Logger.getLogger("com.hazelcast.internal.server.tcp.TcpServerConnectionErrorHandler").warning("connection refused");
    Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker").warning("blocked");
    Logger.getLogger("org.drools.compiler.kie.builder.impl.KieRepositoryImpl").info("adding KieModule");
    Logger.getLogger("dev.bottlenose.web.service.Http").warning("GET /api/x failed");
    Logger.getLogger("io.netty.channel.DefaultChannelPipeline").severe("out of memory");
    org.slf4j.LoggerFactory.getLogger("org.kie.api.internal.utils.KieService").warn("through SLF4J");

    assertThat(text()).isEqualTo("bottlenose: [warning Http] GET /api/x failed" + System.lineSeparator()
        + "bottlenose: [severe DefaultChannelPipeline] out of memory" + System.lineSeparator());
  }

  @Test
  void verbosePrintsTheLibrariesFromInfoUpThroughSlf4jToo() {
    Logging.configure(true, new PrintStream(err, true, StandardCharsets.UTF_8));
    Logger.getLogger("com.hazelcast.instance.impl.Node").info("members [2]");
    org.slf4j.LoggerFactory.getLogger("org.kie.api.internal.utils.KieService").info("through SLF4J");
    Logger.getLogger("io.vertx.core.impl.VertxImpl").fine("too fine");

    assertThat(text()).contains("[info Node] members [2]", "[info KieService] through SLF4J").doesNotContain("too fine");
  }

  @Test
  void verboseIsAskedByEitherSpellingBeforeADoubleDash() {
    assertThat(Logging.verbose("search", "--pid", "1", "-v")).isTrue();
    assertThat(Logging.verbose("--verbose", "serve")).isTrue();
    assertThat(Logging.verbose("daemon", "--", "java", "-v", "-jar", "app.jar")).isFalse();
    assertThat(Logging.verbose("search", "--pid", "1")).isFalse();
  }

  private String text() {
    return err.toString(StandardCharsets.UTF_8);
  }
}
