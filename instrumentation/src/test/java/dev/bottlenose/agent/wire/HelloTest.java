package dev.bottlenose.agent.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hello the agent writes is the hello the daemon reads, through the channel's framing. */
class HelloTest {

  @Test
  void aHelloSurvivesTheWireWholeAndIsKnownAsOne() throws Exception {
    Hello sent = new Hello("t0ken", 4242, "17.0.15", "Debian", "OpenJDK 64-Bit Server VM", "com.acme.Main",
        "java -cp app.jar com.acme.Main", true, Hello.AGENT_VERSION, 1_700_000_000_000L, 1_700_000_001_000L, "attach",
        Map.of("virtualCallNanos", 2L, "allocationNanos", 20L, "samplePeriodNanos", 20_000_000L), "/tmp/2026_11_26_4242");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Frames.write(bytes, sent.toMap());
    Map<String, Object> frame = Frames.read(new ByteArrayInputStream(bytes.toByteArray()));
    assertThat(Hello.isHello(frame)).isTrue();
    assertThat(Hello.fromMap(frame)).isEqualTo(sent);
  }

  @Test
  void missingFieldsReadAsNullOrZeroAndAnotherFrameIsNoHello() {
    Hello bare = Hello.fromMap(Map.of("event", "hello", "token", "t", "calibration", Map.of("x", "not a number")));
    assertThat(bare.pid()).isEqualTo(-1);
    assertThat(bare.mainClass()).isNull();
    assertThat(bare.jfrRepository()).isNull();
    assertThat(bare.calibration()).isEmpty();
    assertThat(Hello.isHello(Map.of("event", "changes"))).isFalse();
  }
}
