package dev.bottlenose.web.cli;

import dev.bottlenose.web.service.WebService;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** {@code serve}: the web UI and the REST API until Ctrl-C; running searches are stopped and saved on the way out. */
final class ServeCommand {
  static final Set<String> VALUED = Set.of("host", "port", "token", "data");
  static final int DEFAULT_PORT = 8411;
  static final String TOKEN_ENV = "BOTTLENOSE_WEB_TOKEN";

  private ServeCommand() {}

  static int run(Args a, PrintStream out, PrintStream err) throws Exception {
    WebService.Options options = options(a, "127.0.0.1");
    Member member = Member.join(err);
    WebService service;
    try {
      service = Member.await(WebService.start(member.vertx(), member.daemons(), options), 30, "starting the web server");
    } catch (Exception e) {
      member.close();
      throw e;
    }
    out.println("bottlenose: serving " + url(options, service.port()) + " (saved searches in " + options.dataDirectory() + ")");
    awaitShutdown(service, member, err);
    return Main.OK;
  }

  static WebService.Options options(Args a, String defaultHost) {
    String token = a.option("token", System.getenv(TOKEN_ENV));
    String host = a.option("host", defaultHost);
    Path data = Path.of(a.option("data", "data/searches"));
    if ((token == null || token.isBlank()) && !isLoopback(host)) {
      throw new UsageException("--host " + host + " is not loopback: give --token T (or set " + TOKEN_ENV + ") so only people with it get in");
    }
    return new WebService.Options(host, a.port("port", DEFAULT_PORT), token, data);
  }

  private static boolean isLoopback(String host) {
    try {
      return java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      throw new UsageException("unknown host '" + host + "'");
    }
  }

  static String url(WebService.Options options, int port) {
    String base = "http://" + options.host() + ":" + port + "/";
    return options.token() == null || options.token().isBlank() ? base : base + "?token=" + options.token();
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
