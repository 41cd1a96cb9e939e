package dev.bottlenose.web.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.bus.PrivateDirectory;
import dev.bottlenose.cli.Cli;
import dev.bottlenose.cli.UsageException;
import dev.bottlenose.web.service.WebService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where {@code serve} takes its token from, and the address it prints. */
class ServeCommandTest {
  private static final String TOKEN = "0123456789abcdef-ghij";
  @TempDir
  Path dir;

  private Supplier<PrivateDirectory> home() {
    return () -> PrivateDirectory.at(dir.resolve("home"));
  }

  private ServeCommand.Setup setup(String env, String... words) {
    ServeCommand serve = new ServeCommand();
    Cli.commandLine(serve, System.out, System.err).parseArgs(words);
    return serve.setup(env, home());
  }

  @Test
  void aTokenOnTheCommandLineIsAUsageErrorNamingTheAlternatives() {
    assertThatThrownBy(() -> setup(null, "--token", TOKEN)).isInstanceOf(UsageException.class)
        .hasMessageContaining("visible to every local user").hasMessageContaining("--token-file FILE")
        .hasMessageContaining("BOTTLENOSE_WEB_TOKEN");
    assertThatThrownBy(() -> setup(null, "--token=" + TOKEN)).isInstanceOf(UsageException.class);
  }

  @Test
  void theTokenComesFromAPrivateFileElseTheEnvironment() throws Exception {
    Path file = Files.writeString(dir.resolve("token"), TOKEN + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThat(setup("from-the-environment", "--token-file", file.toString()).options().token()).isEqualTo(TOKEN);
    assertThat(setup("from-the-environment-1").options().token()).isEqualTo("from-the-environment-1");
    assertThat(setup(null).options().token()).as("loopback needs none").isNull();
    assertThat(setup(null).options().attachAnyUser()).isFalse();
    assertThat(setup(null, "--attach-any-user").options().attachAnyUser()).isTrue();

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> setup(null, "--token-file", file.toString())).hasMessageContaining("readable by other users")
        .hasMessageContaining("chmod 600 " + file);
    assertThatThrownBy(() -> setup(null, "--token-file", dir.resolve("none").toString())).hasMessageContaining("no such file");
    Path weak = Files.writeString(dir.resolve("weak"), "hunter2");
    Files.setPosixFilePermissions(weak, PosixFilePermissions.fromString("rw-------"));
    assertThatThrownBy(() -> setup(null, "--token-file", weak.toString())).hasMessageContaining("has 7 characters, too few");
    assertThatThrownBy(() -> setup("two words but long enough")).hasMessageContaining("must be one word");
    assertThat(Files.exists(dir.resolve("home"))).as("no token was made").isFalse();
  }

  @Test
  void anotherAddressWithoutATokenGetsOneMadeOnceInThePrivateDirectory() throws Exception {
    ServeCommand.Setup first = setup(null, "--host", "0.0.0.0");
    String token = first.options().token();
    assertThat(token).hasSize(43).matches("[A-Za-z0-9_-]+");
    Path file = dir.resolve("home").resolve("web.token");
    assertThat(Files.readString(file)).isEqualTo(token);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(first.tokenNote()).contains("made a token for this service in " + file);

    ServeCommand.Setup second = setup(null, "--host", "0.0.0.0");
    assertThat(second.options().token()).isEqualTo(token);
    assertThat(second.tokenNote()).contains("the token is the one in " + file);
  }

  @Test
  void thePrintedAddressCarriesTheTokenInItsFragment() {
    Path data = Path.of("d");
    assertThat(ServeCommand.url(new WebService.Options("127.0.0.1", 0, null, data), 8411)).isEqualTo("http://127.0.0.1:8411/");
    assertThat(ServeCommand.url(new WebService.Options("0.0.0.0", 0, "a+b/c=d-e_f.g~h", data), 8411))
        .isEqualTo("http://0.0.0.0:8411/#token=a+b/c=d-e_f.g~h");
    assertThat(ServeCommand.url(new WebService.Options("::1", 0, TOKEN, data), 9000)).isEqualTo("http://[::1]:9000/#token=" + TOKEN);
  }
}
