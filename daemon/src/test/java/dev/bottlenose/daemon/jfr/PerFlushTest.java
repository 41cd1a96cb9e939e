package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerFlushTest {
  @Test
  void anObjectIsWorkedOutOncePerFlushByItsIdentityAndTheCacheStaysBounded() {
    List<String> worked = new ArrayList<>();
    PerFlush<String, Integer> lengths = new PerFlush<>(s -> {
      worked.add(s);
      return s.length();
    });
    String a = new String("abc");
    String equalButAnother = new String("abc");

    assertThat(lengths.get(a)).isEqualTo(3);
    assertThat(lengths.get(a)).isEqualTo(3);
    assertThat(lengths.get(equalButAnother)).isEqualTo(3);
    assertThat(worked).as("by identity: an equal object is another constant").containsExactly("abc", "abc");

    lengths.clear();
    lengths.get(a);
    assertThat(worked).hasSize(3);

    for (int i = 0; i < PerFlush.MAX_ENTRIES + 10; i++) {
      lengths.get(Integer.toString(i));
    }
    lengths.get(a);
    assertThat(worked).as("past its bound it starts again").hasSize(3 + PerFlush.MAX_ENTRIES + 10 + 1);
  }
}
