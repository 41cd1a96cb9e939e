package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/jvms} attaches only to JVMs of the service's own user unless {@code --attach-any-user}.
 * Another user's process: as root, {@code sleep} run as uid 65534 through setpriv; otherwise pid 1.
 */
class AttachOwnerTest {
  @TempDir
  Path data;
  private Process stranger;

  @AfterEach
  void stopStranger() {
    if (stranger != null) {
      stranger.destroyForcibly();
    }
  }

  private long othersProcess() throws Exception {
    int me = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    if (me != 0) {
      assumeTrue((Integer) Files.getAttribute(Path.of("/proc/1"), "unix:uid") != me, "pid 1 is this user's");
      return 1;
    }
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv is needed to run a process as another user");
    stranger = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "60").start();
    Path proc = Path.of("/proc", Long.toString(stranger.pid()));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> (Integer) Files.getAttribute(proc, "unix:uid") == 65534);
    return stranger.pid();
  }

  private static boolean spawnedADaemon() {
    return ProcessHandle.current().children().anyMatch(p -> p.info().commandLine().orElse("").contains("no-daemon.jar"));
  }

  @Test
  void anotherUsersJvmIsRefusedNamingItsOwnerAndTheOption() throws Exception {
    long pid = othersProcess();
    try (ServiceFixture f = new ServiceFixture(data, null)) {
      String body = new JsonObject().put("pid", pid).encode();
      RestApiTest.assertError(f.post("/api/jvms", body), 403, "pid " + pid + " belongs to user ");
      assertThat(new JsonObject(f.post("/api/jvms", body).body()).getString("error"))
          .contains("attaches only to its own user's JVMs").contains("bottlenose serve --attach-any-user");
      assertThat(spawnedADaemon()).isFalse();
      assertThat(new JsonObject(f.get("/api/jvms").body()).getJsonArray("jvms")).isEmpty();

      // The service's own user's process passes the check (and then fails for the daemon jar this test lacks).
      Process mine = new ProcessBuilder("sleep", "60").start();
      try {
        RestApiTest.assertError(f.post("/api/jvms", new JsonObject().put("pid", mine.pid()).encode()), 500, "daemon jar not found");
      } finally {
        mine.destroyForcibly();
      }
    }
  }

  @Test
  void attachAnyUserLetsTheRequestThrough() throws Exception {
    long pid = othersProcess();
    try (ServiceFixture f = new ServiceFixture(new WebService.Options("127.0.0.1", 0, null, data, true))) {
      RestApiTest.assertError(f.post("/api/jvms", new JsonObject().put("pid", pid).encode()), 500, "daemon jar not found");
    }
  }
}
