package dev.bottlenose.web.cli;

import dev.bottlenose.bus.PrivateDirectory;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.web.service.ServiceMetrics;
import dev.bottlenose.web.service.WebService;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import dev.bottlenose.cli.ExitCodes;
import dev.bottlenose.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * {@code serve}: the web UI and the REST API until Ctrl-C; running searches are stopped and saved on the way out.
 *
 * <p>The token never travels on a command line (every local user can read {@code /proc/PID/cmdline}) nor in a
 * query string: it comes from {@code --token-file FILE}, else {@value #TOKEN_ENV}, else, for a host other
 * than loopback, from {@code ~/.bottlenose/}{@value #TOKEN_FILE} (made once, {@code 0600}). The printed
 * address carries it after {@code #}, which browsers keep to themselves.
 */
@Command(name = "serve", description = {
    "the web UI and REST API (web/API.md) until Ctrl-C",
    "the token comes from --token-file or BOTTLENOSE_WEB_TOKEN (never from the command line); a host other than loopback without one gets one made in"
        + " ~/.bottlenose/web.token; open the printed address (http://host:port/#token=...) once; it attaches only"
        + " to JVMs of its own user unless --attach-any-user"})
final class ServeCommand implements Callable<Integer> {
  static final int DEFAULT_PORT = 8411;
  static final String TOKEN_ENV = "BOTTLENOSE_WEB_TOKEN";
  static final String TOKEN_FILE = "web.token";
  static final int MIN_TOKEN_LENGTH = 16;
  private static final Pattern TOKEN_CHARS = Pattern.compile("[A-Za-z0-9._~+/=-]+");
  private static final Set<PosixFilePermission> OTHERS_READ = Set.of(PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);

  @ParentCommand
  Main main;

  @Option(names = "--host", paramLabel = "HOST", description = "the address to serve on (default: 127.0.0.1)")
  String host = "127.0.0.1";

  @Option(names = "--port", paramLabel = "PORT", description = "the port (default: " + DEFAULT_PORT + "; 0: any free one)")
  int port = DEFAULT_PORT;

  /** Refused with a reason (a command line is visible to every local user); declared so the reason is what it gets. */
  @Option(names = "--token", hidden = true)
  String refusedToken;

  @Option(names = "--token-file", paramLabel = "FILE", description = "a file only you can read holding the token")
  String tokenFile;

  @Option(names = "--attach-any-user", description = "attach to JVMs of other users too")
  boolean attachAnyUser;

  @Mixin
  DataOption data;

  /** What to serve, and a line for the user about where the token came from (null when there is none to tell). */
  record Setup(WebService.Options options, String tokenNote) {}

  @Override
  public Integer call() throws Exception {
    PrintStream out = main.out;
    PrintStream err = main.err;
    Setup setup = setup(System.getenv(TOKEN_ENV), PrivateDirectory::ofUser);
    WebService.Options options = setup.options();
    SearchRunner.prepareRules();
    ServiceMetrics metrics = new ServiceMetrics();
    Member member = Member.joinAsService(err, metrics.vertxMetrics());
    WebService service;
    try {
      service = Member.await(WebService.start(member.vertx(), member.daemons(), options, metrics), 30,
          "starting the web server");
    } catch (Exception e) {
      member.close();
      throw e;
    }
    if (setup.tokenNote() != null) {
      err.println("bottlenose: " + setup.tokenNote());
    }
    out.println("bottlenose: serving " + url(options, service.port()) + " (saved searches in " + options.dataDirectory() + ")");
    awaitShutdown(service, member, err);
    return ExitCodes.OK;
  }

  Setup setup(String envToken, Supplier<PrivateDirectory> privateDirectory) {
    if (refusedToken != null) {
      throw new UsageException("--token is refused: a command line is visible to every local user (ps, /proc/PID/cmdline);"
          + " put the token in a file only you can read and give --token-file FILE, or set " + TOKEN_ENV
          + " (a host other than loopback without either gets a token made in ~/.bottlenose/" + TOKEN_FILE + ")");
    }
    Path data = this.data.directory();
    int port = port(this.port);
    String file = tokenFile;
    String token = null;
    String note = null;
    if (file != null) {
      token = checked(readTokenFile(Path.of(file)), "the token in " + file);
    } else if (envToken != null && !envToken.isBlank()) {
      token = checked(envToken.strip(), TOKEN_ENV);
    } else if (!isLoopback(host)) {
      PrivateDirectory directory = privateDirectory.get();
      byte[] fresh = newToken().getBytes(StandardCharsets.US_ASCII);
      byte[] kept = directory.createIfAbsent(TOKEN_FILE, fresh);
      Path where = directory.path().resolve(TOKEN_FILE);
      token = checked(new String(kept, StandardCharsets.UTF_8).strip(), "the token in " + where);
      note = (Arrays.equals(fresh, kept) ? "made a token for this service in " : "the token is the one in ") + where
          + " (readable only by you); open the address below once in your browser";
    }
    return new Setup(new WebService.Options(host, port, token, data, attachAnyUser), note);
  }

  /** A port number, 0..65535 (0: any free one). */
  static int port(int port) {
    if (port < 0 || port > 65535) {
      throw new UsageException("--port " + port + " is not in 0..65535");
    }
    return port;
  }

  /** 32 random bytes, base64url: 43 characters. */
  static String newToken() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String readTokenFile(Path file) {
    try {
      if (!Files.exists(file)) {
        throw new UsageException("--token-file " + file + ": no such file");
      }
      if (Files.isRegularFile(file) && Files.getFileAttributeView(file, PosixFileAttributeView.class) != null) {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (permissions.stream().anyMatch(OTHERS_READ::contains)) {
          throw new UsageException("--token-file " + file + " is readable by other users (" + PosixFilePermissions.toString(permissions)
              + "): chmod 600 " + file);
        }
      }
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UsageException("--token-file " + file + ": cannot read it: " + e.getMessage());
    }
  }

  /** A token of at least {@value #MIN_TOKEN_LENGTH} characters that can go in a cookie and a URL as it is. */
  private static String checked(String token, String where) {
    if (token.isEmpty()) {
      throw new UsageException(where + " is empty");
    }
    if (!TOKEN_CHARS.matcher(token).matches()) {
      throw new UsageException(where + " must be one word of letters, digits and . _ ~ + / = - (e.g. base64 or hex)");
    }
    if (token.length() < MIN_TOKEN_LENGTH) {
      throw new UsageException(where + " has " + token.length() + " characters, too few to resist guessing: use at least "
          + MIN_TOKEN_LENGTH + ", e.g. head -c 32 /dev/urandom | base64 > FILE");
    }
    return token;
  }

  private static boolean isLoopback(String host) {
    try {
      return java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      throw new UsageException("unknown host '" + host + "'");
    }
  }

  /**
   * The address to open: {@code http://host:port/}, with the token after {@code #} when there is one (a
   * fragment is never sent to a server, so it stays out of requests, logs and Referer headers).
   */
  static String url(WebService.Options options, int port) {
    String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
    String base = "http://" + host + ":" + port + "/";
    if (options.token() == null || options.token().isBlank()) {
      return base;
    }
    StringBuilder fragment = new StringBuilder();
    for (byte b : options.token().getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (c < 128 && (Character.isLetterOrDigit(c) || "._~+/=-".indexOf(c) >= 0)) {
        fragment.append(c);
      } else {
        fragment.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return base + "#token=" + fragment;
  }

  /** Blocks until Ctrl-C, then stops searches (saved), the server, the spawned daemons and leaves the cluster. */
  static void awaitShutdown(WebService service, Member member, PrintStream err) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      err.println("bottlenose: stopping (running searches are saved)...");
      shutdown(service, member);
      done.countDown();
    }, "bottlenose-shutdown"));
    done.await();
  }

  static void shutdown(WebService service, Member member) {
    try {
      Member.await(service.close(), 30, "stopping the service");
    } catch (Exception e) {
      System.err.println("bottlenose: stopping the service: " + e.getMessage());
    }
    member.close();
  }
}
