package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.web.render.Graphs;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of mutated requests against a real service (a token set, one saved search, no daemon), written
 * byte for byte on sockets so that nothing a client library would refuse to send is left out: every route of
 * API.md with mutated methods, paths (traversal, encoded slashes, huge ids, unicode, NUL, bad escapes),
 * query strings ({@code format=}, {@code token=}, {@code path=}), headers (Host, Origin, Sec-Fetch-Site,
 * Content-Type, Authorization, Cookie, Transfer-Encoding, Upgrade) and bodies (API.md's examples mutated:
 * wrong types, deep nesting, huge numbers, bodies over 1 MiB, invalid UTF-8).
 *
 * <p>Every answer: a status API.md documents, never 500; an error is JSON with a non-blank {@code error};
 * no stack trace or exception class; a foreign Host is 421; without the token no API answer; from another
 * origin or site no API answer and no change. After all of them: the service still answers, what it holds
 * changed only as the successful answers said, it logged no unhandled failure, and no file outside its data
 * directory was created or changed.
 *
 * <p>The seed is new each run and printed with every failure; {@code -Dbottlenose.fuzz.seed=S} repeats a
 * run, {@code -Dbottlenose.fuzz.requests=N} sets how many requests it makes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestFuzzTest {
  private static final long SEED = Long.getLong("bottlenose.fuzz.seed", new SecureRandom().nextLong());
  private static final int REQUESTS = Integer.getInteger("bottlenose.fuzz.requests", 4000);
  private static final String TOKEN = "fuzz-T0ken.0123456789";
  private static final String SEARCH = "hot-1";
  private static final String DAEMON = "vm-42";
  /** The statuses of web/API.md (101: the live socket's upgrade). */
  private static final Set<Integer> DOCUMENTED = Set.of(101, 200, 201, 400, 401, 403, 404, 409, 410, 413, 414, 415, 421, 429, 431, 503);
  /** A Java stack frame, an exception's class name, or the words around one. */
  private static final Pattern STACK_TRACE = Pattern.compile("at dev\\.bottlenose|Exception:|\\tat |\\bat [\\w$.]+\\([\\w$]+\\.java:\\d+\\)"
      + "|\\b(java|javax|jdk|sun|io\\.vertx|io\\.netty|com\\.fasterxml|com\\.hazelcast|dev\\.bottlenose)(\\.[\\w$]+)+(Exception|Error)\\b");
  private static final int MIB = 1 << 20;
  /** The routes that read a JSON body. */
  private static final Set<String> BODY_ROUTES = Set.of("POST /api/jvms", "POST /api/metrics/check", "POST /api/metrics", "POST /api/plots",
      "POST /api/vmapp", "POST /api/searches", "POST /api/session");

  @TempDir
  static Path root;
  private Path data;
  private Path fileCache;
  private ServiceFixture fixture;
  private int port;
  private final List<LogRecord> severe = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final Handler logged = new Handler() {
    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
        severe.add(record);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeAll
  void start() throws Exception {
    data = Files.createDirectories(root.resolve("data"));
    fileCache = Files.createDirectories(root.resolve("vertx-cache"));
    new SearchStore(data).save(Graphs.saved(SEARCH, DAEMON));
    Vertx vertx = Vertx.vertx(new VertxOptions().setFileSystemOptions(new FileSystemOptions().setFileCacheDir(fileCache.resolve("files").toString())));
    fixture = new ServiceFixture(vertx, new WebService.Options("127.0.0.1", 0, TOKEN, data));
    port = fixture.service.port();
    Logger.getLogger("").addHandler(logged);
  }

  @AfterAll
  void stop() throws Exception {
    Logger.getLogger("").removeHandler(logged);
    fixture.close();
  }

  @Test
  void thousandsOfMutatedRequestsGetDocumentedAnswersAndChangeNothingOutsideTheDataDirectory() throws Exception {
    Map<Path, String> before = files();
    List<String> library = metricNames();
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    Set<String> added = ConcurrentHashMap.newKeySet();
    AtomicInteger unanswered = new AtomicInteger();
    long started = System.nanoTime();

    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < REQUESTS; i++) {
        int index = i;
        all.add(pool.submit(() -> {
          Req q = generate(new Random(SEED + index * 0x9E3779B97F4A7C15L), index);
          Answer a;
          try {
            a = exchange(q);
          } catch (IOException | RuntimeException e) {
            failures.add(q + "\n  -> no answer: " + e);
            return;
          }
          if (a == null) {
            if (q.mayGoUnanswered) {
              unanswered.incrementAndGet();
            } else {
              failures.add(q + "\n  -> the connection closed without an answer");
            }
            return;
          }
          statuses.computeIfAbsent(a.status, s -> new AtomicInteger()).incrementAndGet();
          List<String> wrong = check(q, a);
          if (!wrong.isEmpty()) {
            failures.add(q + "\n  -> " + a + "\n  " + String.join("\n  ", wrong));
          }
          if (a.status == 200 && a.contentType().startsWith("application/json") && a.text().startsWith("{\"added\":")) {
            // POST /api/metrics took definitions (whichever route the request was made from: /api/metrics/check/.. is it too)
            new JsonObject(a.text()).getJsonArray("added").forEach(n -> added.add((String) n));
          }
        }));
      }
      for (Future<?> f : all) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
    System.out.printf("RestFuzzTest: seed %d, %d requests in %d s, %d closed unanswered (malformed framing), statuses %s%n",
        SEED, REQUESTS, seconds, unanswered.get(), new TreeMap<>(statuses));

    assertThat(failures).as("seed " + SEED + " (-Dbottlenose.fuzz.seed=" + SEED + " repeats it); " + failures.size()
        + " wrong answers, the first 15:\n" + failures.stream().limit(15).collect(Collectors.joining("\n\n"))).isEmpty();

    // The service still answers, and holds what the successful answers said and nothing else.
    ServiceFixture.Raw list = fixture.raw("GET", "/api/searches", null, "Authorization: Bearer " + TOKEN);
    assertThat(list.status()).as(list.body()).isEqualTo(200);
    assertThat(list.json().getJsonArray("searches").stream().map(o -> ((JsonObject) o).getString("searchId")))
        .as("no search started or saved").containsExactly(SEARCH);
    List<String> expected = new ArrayList<>(library);
    expected.addAll(added);
    assertThat(metricNames()).as("metrics added only by the 200 answers").containsExactlyInAnyOrderElementsOf(expected);
    assertThat(severe.stream().map(r -> r.getLoggerName() + ": " + r.getMessage() + " " + r.getThrown()))
        .as("unhandled failures the server logged").isEmpty();
    // Enough of them get through the gate (Host, Origin, token) to the routes' own checks and answers.
    int reached = statuses.entrySet().stream().filter(e -> Set.of(200, 201, 404, 409).contains(e.getKey()))
        .mapToInt(e -> e.getValue().get()).sum();
    assertThat(reached).as("answers from the routes themselves, %s", new TreeMap<>(statuses)).isGreaterThan(REQUESTS / 4);

    assertThat(diff(before, files())).as("files created, changed or removed outside the data directory").isEmpty();
  }

  private List<String> metricNames() throws IOException {
    ServiceFixture.Raw r = fixture.raw("GET", "/api/metrics", null, "Authorization: Bearer " + TOKEN);
    assertThat(r.status()).isEqualTo(200);
    return r.json().getJsonArray("metrics").stream().map(o -> ((JsonObject) o).getString("name")).toList();
  }

  // ---- what every answer must be ----

  private List<String> check(Req q, Answer a) {
    List<String> wrong = new ArrayList<>();
    if (!DOCUMENTED.contains(a.status) || a.status == 101 && !q.upgrade) {
      if (!(a.status == 501 && q.oddVersion && a.body.length == 0) && !(a.status == 301 && q.route.equals("GET page"))) {
        wrong.add("status " + a.status + " is not one API.md documents for it");
      }
    }
    String text = a.text();
    if (STACK_TRACE.matcher(a.head).find() || STACK_TRACE.matcher(text).find()) {
      wrong.add("the answer holds a stack trace or an exception's class name");
    }
    String location = a.header("location");
    if (location != null && (!location.startsWith("/") || location.startsWith("//") || location.contains("\\"))) {
      wrong.add("a redirect to another site: " + location);
    }
    boolean json = a.contentType().startsWith("application/json");
    JsonObject body = null;
    if (json && !text.isBlank()) {
      try {
        body = new JsonObject(text);
      } catch (RuntimeException e) {
        wrong.add("Content-Type JSON, but the body is not a JSON object");
      }
    }
    if (a.status >= 400 && !q.method.equals("HEAD") && a.status != 501) {
      if (!json || body == null) {
        wrong.add("an error answer that is not a JSON object");
      } else if (!(body.getValue("error") instanceof String e) || e.isBlank()) {
        wrong.add("an error answer without a non-blank 'error'");
      }
    }
    boolean ok = a.status >= 200 && a.status < 300;
    boolean apiAnswer = ok && body != null && !body.containsKey("tokenNeeded");
    if (q.host == HostKind.FOREIGN && !Set.of(421, 400, 414, 431, 501).contains(a.status)) {
      wrong.add("a Host that does not name the service must be 421 (or refused earlier as malformed)");
    }
    if (q.invalidUtf8 && ok && BODY_ROUTES.contains(q.route) && q.route.startsWith(q.method + " ")) {
      wrong.add("a body that is not UTF-8 was taken");
    }
    if (!q.tokenSent && apiAnswer) {
      wrong.add("an API answer to a request without the token");
    }
    if ((q.foreignOrigin || q.crossSite) && (apiAnswer || ok && !Set.of("GET", "HEAD", "OPTIONS").contains(q.method))) {
      wrong.add("a request from another origin or site was served");
    }
    return wrong;
  }

  // ---- the requests ----

  enum HostKind { OWN, FOREIGN, ODD }

  /** One request as written on the socket, with what its answer must respect. */
  static final class Req {
    final int index;
    String route;
    String method;
    /** The request line and headers, one char a byte (ISO-8859-1), so raw UTF-8, NUL and 0xFF can be in them. */
    final StringBuilder head = new StringBuilder();
    byte[] body = new byte[0];
    HostKind host = HostKind.OWN;
    boolean tokenSent;
    boolean foreignOrigin;
    boolean crossSite;
    boolean upgrade;
    boolean mayGoUnanswered;
    boolean oddVersion;
    boolean invalidUtf8;
    String framing = "none";

    Req(int index) {
      this.index = index;
    }

    byte[] bytes() {
      byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
      byte[] all = new byte[h.length + body.length];
      System.arraycopy(h, 0, all, 0, h.length);
      System.arraycopy(body, 0, all, h.length, body.length);
      return all;
    }

    @Override
    public String toString() {
      String shownBody = body.length > 300 ? printable(new String(body, 0, 300, StandardCharsets.ISO_8859_1)) + "… (" + body.length + " bytes)"
          : printable(new String(body, StandardCharsets.ISO_8859_1));
      String shownHead = head.length() > 1500 ? head.substring(0, 1500) + "…" : head.toString();
      return "#" + index + " [" + route + ", " + framing + "]\n  " + printable(shownHead).replace("\\r\\n", "\n  ") + shownBody;
    }
  }

  private record Route(String name, String method, String path, String query, Function<Random, Object> body, int weight) {}

  private List<Route> routes() {
    return List.of(
        new Route("GET /api/jvms", "GET", "/api/jvms", null, null, 3),
        new Route("GET /api/local-jvms", "GET", "/api/local-jvms", null, null, 1),
        new Route("POST /api/jvms", "POST", "/api/jvms", null, r -> obj("pid", pid(r)), 6),
        new Route("GET resources", "GET", "/api/jvms/{daemon}/resources", "path", null, 4),
        new Route("GET stacks", "GET", "/api/jvms/{daemon}/stacks", "graph", null, 4),
        new Route("GET /api/metrics", "GET", "/api/metrics", null, null, 2),
        new Route("POST /api/metrics/check", "POST", "/api/metrics/check", null, r -> obj("text", metricText(r)), 8),
        new Route("POST /api/metrics", "POST", "/api/metrics", null, r -> obj("text", metricText(r)), 8),
        new Route("POST /api/plots", "POST", "/api/plots", null,
            r -> obj("daemonId", DAEMON, "metric", pick(r, "cpu_inclusive", "cpu", "sync_wait", "nope"), "focus", focus(r)), 8),
        new Route("DELETE /api/plots", "DELETE", "/api/plots/{plot}", null, null, 3),
        new Route("POST /api/vmapp", "POST", "/api/vmapp", null, r -> obj("daemonId", DAEMON, "focus", focus(r)), 6),
        new Route("DELETE /api/vmapp", "DELETE", "/api/vmapp/{view}", null, null, 3),
        new Route("POST /api/searches", "POST", "/api/searches", null, RestFuzzTest::searchBody, 12),
        new Route("GET /api/searches", "GET", "/api/searches", null, null, 3),
        new Route("GET search", "GET", "/api/searches/{search}", null, null, 5),
        new Route("GET node", "GET", "/api/searches/{search}/nodes/{node}", null, null, 5),
        new Route("POST stop", "POST", "/api/searches/{search}/stop", null, r -> r.nextBoolean() ? null : obj(), 4),
        new Route("GET export", "GET", "/api/searches/{search}/export", "format", null, 6),
        new Route("GET findings", "GET", "/api/searches/{search}/findings", null, null, 4),
        new Route("GET /api/live", "GET", "/api/live", null, null, 4),
        new Route("POST /api/session", "POST", "/api/session", null, r -> obj("token", r.nextInt(3) == 0 ? "wrong-token-0123456789" : TOKEN), 5),
        new Route("GET page", "GET", "/{page}", null, null, 5));
  }

  private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT",
      "FOO", "get", "PROPFIND", "M-SEARCH", "G\u00c9T", "");

  private Req generate(Random r, int index) {
    Req q = new Req(index);
    List<Route> routes = routes();
    int total = routes.stream().mapToInt(Route::weight).sum();
    int n = r.nextInt(total);
    Route route = routes.get(0);
    for (Route candidate : routes) {
      n -= candidate.weight();
      if (n < 0) {
        route = candidate;
        break;
      }
    }
    q.route = route.name();
    q.method = r.nextInt(10) < 8 ? route.method() : pick(r, METHODS);

    String target = fill(route.path(), r);
    if (r.nextInt(7) == 0) {
      target = mutatePath(target, r);
    }
    String query = query(route.query(), r);
    if (!query.isEmpty()) {
      target = target + "?" + query;
    }
    String version = r.nextInt(40) == 0 ? pick(r, "HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "http/1.1", "HTTP/1.1 x", "HTTP/1.10") : "HTTP/1.1";
    q.oddVersion = !version.equals("HTTP/1.1") && !version.equals("HTTP/1.0");
    q.head.append(q.method).append(' ').append(target).append(' ').append(version).append("\r\n");

    host(q, r);
    auth(q, r);
    origin(q, r);
    if (route.name().equals("GET /api/live") && r.nextInt(3) > 0 || r.nextInt(40) == 0) {
      upgrade(q, r);
    }
    body(q, route, r);
    extraHeaders(q, r);
    q.head.append(r.nextInt(8) == 0 ? "Connection: keep-alive\r\n" : "Connection: close\r\n");
    q.head.append("\r\n");
    return q;
  }

  private String fill(String template, Random r) {
    String path = template;
    path = path.replace("{daemon}", id(r, DAEMON));
    path = path.replace("{search}", id(r, SEARCH));
    path = path.replace("{node}", id(r, pick(r, "0", "1", "2", "3", "4", "9")));
    path = path.replace("{plot}", id(r, "p" + r.nextInt(5)));
    path = path.replace("{view}", id(r, "v" + r.nextInt(5)));
    path = path.replace("{page}", r.nextInt(4) == 0 ? id(r, "index.html")
        : pick(r, "", "index.html", "js/app.js", "js/api.js", "css/app.css", "webjars/d3/7.9.0/dist/d3.min.js", "favicon.ico", "js/", "js",
            "webjars/d3/7.9.0/README.md", "nothing.html"));
    return path;
  }

  private String id(Random r, String valid) {
    if (r.nextInt(10) < 6) {
      return valid;
    }
    return pick(r, "..", "../..", "..%2F..%2F..%2Fetc%2Fpasswd", "%2e%2e", "%2e%2e%2f%2e%2e%2fetc", "..%5C..%5Cwindows", "a%2Fb", "%2F", "",
        "%20", "%00", "a%00b", valid + "%00.json", "\u0000", "%", "%zz", "%C0%AF", "%FF%FE", "\u00ff", "9".repeat(40), "9".repeat(2000),
        "-1", "0", "2147483648", "1e9", "0x1F", raw("été"), raw("\uD83D\uDE00"), "%F0%9F%98%80", "%E2%80%AE", raw("\u202E"), valid + ".json",
        valid + "/", valid.toUpperCase(Locale.ROOT), valid + ";a=b", valid + "%23x", valid + "%3Fformat=dot", "..;", "%252e%252e",
        valid + "/../" + valid, "~root", "$(id)", "{{7*7}}", "<script>", "%3Cscript%3E", "'", "\"", "*", valid + "\t", "a b");
  }

  private String mutatePath(String path, Random r) {
    return switch (r.nextInt(18)) {
      case 0 -> "/x/.." + path;
      case 1 -> "/." + path;
      case 2 -> "/" + path;
      case 3 -> path.replaceFirst("/api/", "/api//");
      case 4 -> path.replace("/api/", "/API/");
      case 5 -> path + "/";
      case 6 -> path + "/..";
      case 7 -> path + "/../../../../../../etc/passwd";
      case 8 -> "/" + path.substring(1).replace("/", "%2F");
      case 9 -> "/%2e%2e" + path;
      case 10 -> "http://127.0.0.1:" + port + path;
      case 11 -> "http://evil.example" + path;
      case 12 -> path.substring(1);
      case 13 -> path + "/" + "a".repeat(5000);
      case 14 -> "/webjars/../.." + path;
      case 15 -> path.replace("/", "\\");
      case 16 -> "*";
      default -> path + ";jsessionid=x";
    };
  }

  private String query(String kind, Random r) {
    List<String> parts = new ArrayList<>();
    if ("format".equals(kind) && r.nextInt(5) > 0) {
      parts.add("format=" + (r.nextInt(2) == 0 ? pick(r, "json", "dot", "svg")
          : pick(r, "", "png", "JSON", "json&format=svg", "x".repeat(5000), "%zz", "json%00", raw("é"), "%C3%A9", "svg%0d%0aX-Injected:%201")));
    }
    if ("path".equals(kind) && r.nextInt(5) > 0) {
      parts.add("path=" + (r.nextInt(2) == 0 ? pick(r, "/", "/Code", "/Code/com.acme", "/Code/com.acme/Hot/spin()V", "/Threads")
          : pick(r, "", "..", "%2F..%2F..", "<>", "/Code/%00", "/Code/" + "a".repeat(3000), "/Code/com.acme/", "//", "/Nope", "%zz",
              "/Code/" + "a/".repeat(500), "/Code/%E2%80%AE", "/Code/" + raw("ü"), "/Code/a%2Fb", "/Code/<>", "/Code/a b")));
    }
    if (r.nextInt(12) == 0) {
      parts.add(pick(r, "token=" + TOKEN, "token=wrong", "bottlenose_token=" + TOKEN, "access_token=" + TOKEN));
    }
    if (r.nextInt(15) == 0) {
      parts.add(pick(r, "=", "&&&", "a", "a=1&a=2", "%", "?", "a[b]=c", "a=\u0000", "a=%00", raw("ä=ö"), "x=" + "y".repeat(3000)));
    }
    return String.join("&", parts);
  }

  private void host(Req q, Random r) {
    int k = r.nextInt(100);
    if (k < 85) {
      q.head.append("Host: ").append(pick(r, "127.0.0.1:" + port, "127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port,
          "[::1]:" + port, "127.0.0.1")).append("\r\n");
    } else if (k < 93) {
      q.host = HostKind.FOREIGN;
      q.head.append("Host: ").append(pick(r, "evil.example", "evil.example:" + port, "127.0.0.1.evil.example", "127.0.0.2:" + port,
          "0.0.0.0:" + port, "10.0.0.1", "localhost.evil.example:" + port, "xn--80ak6aa92e.com")).append("\r\n");
    } else {
      q.host = HostKind.ODD;
      int m = r.nextInt(9);
      if (m == 0) {
        return;
      }
      q.head.append("Host: ").append(switch (m) {
        case 1 -> "";
        case 2 -> "[::1";
        case 3 -> "127.0.0.1:99999999";
        case 4 -> "127.0.0.1:" + port + ":" + port;
        case 5 -> "localhost@evil.example";
        case 6 -> "evil.example/path";
        case 7 -> raw("é.example");
        default -> "127.0.0.1:" + port + "\r\nHost: evil.example";
      }).append("\r\n");
    }
  }

  private void auth(Req q, Random r) {
    int k = r.nextInt(100);
    String line;
    if (k < 70) {
      line = "Authorization: Bearer " + TOKEN;
    } else if (k < 78) {
      line = "Cookie: " + pick(r, "bottlenose_token=" + TOKEN, "a=b; bottlenose_token=" + TOKEN, "bottlenose_token=" + TOKEN + "; x=y");
    } else if (k < 86) {
      line = null;
    } else if (k < 94) {
      line = pick(r, "Authorization: Bearer wrong", "Authorization: Bearer ", "Authorization: Basic Zm9vOmJhcg==",
          "Authorization: Bearer " + TOKEN + "x", "Authorization: Bearer " + TOKEN.substring(1), "Authorization: bearer " + TOKEN.toUpperCase(Locale.ROOT),
          "Cookie: bottlenose_token=nope", "Cookie: ;;;=", "Cookie: bottlenose_token=\"\"", "Authorization: Bearer " + "A".repeat(3000),
          "Authorization: Bearer \u0000");
    } else {
      line = pick(r, "Authorization: Bearer " + TOKEN + "\r\nAuthorization: Bearer wrong", "Cookie: bottlenose_token=" + TOKEN
          + "; bottlenose_token=wrong", "Authorization: Bearer  " + TOKEN, "Authorization: Bearer " + TOKEN + " ");
    }
    if (line != null) {
      q.tokenSent = line.contains(TOKEN) || line.toLowerCase(Locale.ROOT).contains(TOKEN.toLowerCase(Locale.ROOT));
      q.head.append(line).append("\r\n");
    }
  }

  private void origin(Req q, Random r) {
    String host = hostOf(q);
    if (r.nextInt(5) == 0) {
      String origin = pick(r, "http://" + host, "http://" + host, "http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1:" + port,
          "HTTP://" + host, "http://" + host + "/path", "http://localhost:" + port, "", "::::", "http://[::1", "http://" + "e".repeat(3000),
          "file://", "http://evil.example@127.0.0.1:" + port, "http://127.0.0.1:" + port + "#x");
      q.foreignOrigin = host == null || !origin.equalsIgnoreCase("http://" + host);
      q.head.append("Origin: ").append(origin).append("\r\n");
    }
    if (r.nextInt(8) == 0) {
      String site = pick(r, "same-origin", "none", "cross-site", "same-site", "CROSS-SITE", "", "garbage");
      q.crossSite = site.equalsIgnoreCase("cross-site") || site.equalsIgnoreCase("same-site");
      q.head.append("Sec-Fetch-Site: ").append(site).append("\r\n");
    }
  }

  private static String hostOf(Req q) {
    int at = q.head.indexOf("\r\nHost: ");
    if (at < 0) {
      return null;
    }
    int end = q.head.indexOf("\r\n", at + 2);
    return q.head.substring(at + "\r\nHost: ".length(), end);
  }

  private void upgrade(Req q, Random r) {
    if (r.nextInt(4) == 0) {
      q.head.append(pick(r, "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nConnection: Upgrade, HTTP2-Settings\r\n",
          "Upgrade: websocket\r\n", "Upgrade: WebSocket\r\nSec-WebSocket-Version: 8\r\nSec-WebSocket-Key: x\r\nConnection: upgrade\r\n",
          "Upgrade: foo\r\nConnection: Upgrade\r\n", "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"));
      return;
    }
    q.upgrade = true;
    q.head.append("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n");
  }

  private void extraHeaders(Req q, Random r) {
    if (r.nextInt(25) == 0) {
      q.head.append("X-Large: ").append("h".repeat(r.nextBoolean() ? 7000 : 20_000)).append("\r\n");
    }
    if (r.nextInt(40) == 0) {
      for (int i = 0; i < 300; i++) {
        q.head.append("X-Many-").append(i).append(": ").append(i).append("\r\n");
      }
    }
    if (r.nextInt(20) == 0) {
      q.head.append("Expect: 100-continue\r\n");
    }
    if (r.nextInt(40) == 0) {
      q.head.append(pick(r, "X-Null: a\u0000b\r\n", "X-Utf8: " + raw("ü") + "\r\n", "Bad Header: x\r\n", ": empty\r\n", "X-Fold: a\r\n b\r\n",
          "X-Forwarded-For: 10.0.0.1\r\n", "X-Forwarded-Host: evil.example\r\n", "Forwarded: host=evil.example\r\n", "X-Nocolon\r\n"));
    }
  }

  // ---- bodies ----

  private void body(Req q, Route route, Random r) {
    Object example = route.body() == null ? null : route.body().apply(r);
    byte[] body = payload(q, route, example, r);
    if (body != null) {
      try {
        StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(body));
      } catch (java.nio.charset.CharacterCodingException e) {
        q.invalidUtf8 = true;
      }
    }
    frame(q, body, r);
  }

  private byte[] payload(Req q, Route route, Object example, Random r) {
    byte[] body;
    if (example == null && route.body() != null) {
      body = null;
    } else if (example != null && r.nextInt(8) > 0) {
      body = mutateBody(example, r);
    } else if (r.nextInt(6) == 0) {
      body = mutateBody(searchBody(r), r);
    } else {
      body = null;
    }
    return body;
  }

  private void frame(Req q, byte[] body, Random r) {
    boolean json = r.nextInt(10) < 8;
    if (body != null || r.nextInt(10) == 0) {
      String type = json ? pick(r, "application/json", "application/json", "application/json; charset=utf-8", "Application/JSON",
          "application/json;charset=UTF-8", " application/json ", "application/json; charset=latin1", "application/json; boundary=x")
          : pick(r, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b", "application/jsonx",
              "application/json-patch+json", "", "*/*", "application/json, text/plain", "text/json", raw("appl\u00efcation/json"));
      if (r.nextInt(15) > 0) {
        q.head.append("Content-Type: ").append(type).append("\r\n");
      }
    }
    if (body == null) {
      if (r.nextInt(20) == 0) {
        q.head.append(pick(r, "Content-Length: 0\r\n", "Transfer-Encoding: chunked\r\n"));
        if (q.head.indexOf("chunked") >= 0) {
          q.framing = "chunked";
          q.body = "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        }
      }
      return;
    }
    int framing = r.nextInt(100);
    if (framing < 82) {
      q.framing = "length";
      q.head.append("Content-Length: ").append(body.length).append("\r\n");
      q.body = body;
    } else if (framing < 92) {
      q.framing = "chunked";
      q.head.append(pick(r, "Transfer-Encoding: chunked\r\n", "Transfer-Encoding: Chunked\r\n", "Transfer-Encoding: gzip, chunked\r\n"));
      q.body = chunked(body, r);
    } else if (framing < 95) {
      q.framing = "chunked and length";
      q.head.append("Transfer-Encoding: chunked\r\nContent-Length: ").append(r.nextBoolean() ? body.length : 3).append("\r\n");
      q.body = chunked(body, r);
    } else if (framing < 97) {
      q.framing = "bad chunk";
      q.mayGoUnanswered = true;
      q.head.append("Transfer-Encoding: chunked\r\n");
      q.body = (pick(r, "zz", "-5", "ffffffffffffffffffff", "1;" + "e".repeat(9000), "") + "\r\n" + "x".repeat(10) + "\r\n0\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1);
    } else {
      q.framing = "odd length";
      q.head.append(pick(r, "Content-Length: abc\r\n", "Content-Length: -1\r\n", "Content-Length: +" + body.length + "\r\n",
          "Content-Length: " + body.length + "\r\nContent-Length: " + (body.length + 1) + "\r\n", "Content-Length: 99999999999999999999\r\n",
          "Transfer-Encoding: identity\r\nContent-Length: " + body.length + "\r\n", "Transfer-Encoding: chunked, identity\r\n"));
      q.body = body;
      q.mayGoUnanswered = true;
    }
  }

  private static byte[] chunked(byte[] body, Random r) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = 0;
    while (at < body.length) {
      int size = Math.min(body.length - at, 1 + r.nextInt(r.nextBoolean() ? 16 : 70_000));
      String hex = Integer.toHexString(size);
      out.writeBytes(((r.nextInt(5) == 0 ? hex.toUpperCase(Locale.ROOT) : hex) + (r.nextInt(10) == 0 ? ";ext=1" : "") + "\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.write(body, at, size);
      out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      at += size;
    }
    out.writeBytes((r.nextInt(8) == 0 ? "0\r\nX-Trailer: 1\r\n\r\n" : "0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    return out.toByteArray();
  }

  private static byte[] mutateBody(Object example, Random r) {
    int k = r.nextInt(100);
    if (k < 25) {
      return utf8(json(example));
    }
    if (k < 55) {
      Object copy = example;
      for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
        copy = mutateValue(copy, r, 0);
      }
      return utf8(json(copy));
    }
    String text = json(example);
    return switch (k % 15) {
      case 0 -> utf8(pick(r, "[]", "\"text\"", "42", "null", "true", "[" + text + "]", "", " ", "\n", "{}", "{", "}", "{\"a\"}", "{'pid': 1}"));
      case 1 -> utf8(text.substring(0, r.nextInt(Math.max(1, text.length()))));
      case 2 -> utf8(nest(r.nextBoolean() ? "[" : "{\"a\":", r.nextBoolean() ? "]" : "}", pick(r, 100, 1001, 5000, 200_000)));
      case 3 -> utf8(text.replaceFirst("\\{", "{\"n\": 1" + "0".repeat(pick(r, 400, 1200, 50_000)) + ", "));
      case 4 -> utf8(text.replaceFirst("\\{", "{\"n\": " + pick(r, "1e999999999", "-1e400", "0.000000000000000000000000000000001",
          "123456789012345678901234567890", "NaN", "Infinity", "-0", "1.5e308", "0x10", "01") + ", "));
      case 5 -> big(text, r);
      case 6 -> invalidUtf8(text, r);
      case 7 -> cat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(text));
      case 8 -> utf8(text.replaceFirst("\\{", "{\"a\": \"x\\u0000y\", ").replaceFirst("\"", "\"\u0000"));
      case 9 -> utf8(text.replace("\"", "'"));
      case 10 -> utf8(text.replaceFirst("}$", ",}") + "/* c */");
      case 11 -> utf8("{" + Stream.iterate(0, i -> i + 1).limit(pick(r, 1000, 20_000)).map(i -> "\"k" + i + "\": " + i)
          .collect(Collectors.joining(",")) + "}");
      case 12 -> utf8(text.replaceFirst("\\{", "{\"" + "k".repeat(pick(r, 1000, 100_000)) + "\": 1, "));
      case 13 -> utf8(text + text);
      default -> utf8(text.replaceFirst("\\{", "{\"daemons\": [\"a\"], \"daemons\": 7, "));
    };
  }

  /** A body around 1 MiB: just under the limit, at it, or over it. */
  private static byte[] big(String text, Random r) {
    int size = pick(r, MIB - 64, MIB, MIB + 1, MIB + 4096, 3 * MIB);
    String filler = pick(r, "a", "é", "{", "\\u0000", " ");
    StringBuilder b = new StringBuilder(size + 64).append("{\"text\": \"");
    while (b.length() < size) {
      b.append(filler);
    }
    b.append("\", \"rest\": ").append(text).append('}');
    return utf8(b.toString());
  }

  private static byte[] invalidUtf8(String text, Random r) {
    byte[] bad = pick(r, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xC0, (byte) 0xAF},
        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        new byte[] {(byte) 0xE2, (byte) 0x82}, new byte[] {(byte) 0x80});
    byte[] t = utf8(text);
    int quote = text.indexOf(": \"");
    int at = quote < 0 ? r.nextInt(t.length + 1) : utf8(text.substring(0, quote + 3)).length;
    return cat(cat(java.util.Arrays.copyOfRange(t, 0, at), bad), java.util.Arrays.copyOfRange(t, at, t.length));
  }

  @SuppressWarnings("unchecked")
  private static Object mutateValue(Object v, Random r, int depth) {
    if (v instanceof Map<?, ?> m && !m.isEmpty() && depth < 3) {
      Map<String, Object> copy = new java.util.LinkedHashMap<>((Map<String, Object>) m);
      List<String> keys = new ArrayList<>(copy.keySet());
      String key = keys.get(r.nextInt(keys.size()));
      switch (r.nextInt(6)) {
        case 0 -> copy.remove(key);
        case 1 -> copy.put(pick(r, "colour", "", "__proto__", "pid", "daemons", "k".repeat(300), "ключ"), anyValue(r, key));
        default -> copy.put(key, key.equals("pid") ? pid(r) : r.nextInt(3) == 0 ? mutateValue(copy.get(key), r, depth + 1) : anyValue(r, key));
      }
      return copy;
    }
    if (v instanceof List<?> l && !l.isEmpty() && depth < 3) {
      List<Object> copy = new ArrayList<>(l);
      switch (r.nextInt(3)) {
        case 0 -> copy.add(anyValue(r, ""));
        case 1 -> copy.set(r.nextInt(copy.size()), anyValue(r, ""));
        default -> copy.clear();
      }
      return copy;
    }
    return anyValue(r, "");
  }

  /** A JSON value of any type; for {@code pid} only numbers that are no process (a real one would get a daemon). */
  private static Object anyValue(Random r, String key) {
    if (key.equals("pid")) {
      return pid(r);
    }
    return switch (r.nextInt(22)) {
      case 0 -> null;
      case 1 -> true;
      case 2 -> 0;
      case 3 -> -1;
      case 4 -> 1.5;
      case 5 -> new Raw("1e308");
      case 6 -> new Raw("1e400");
      case 7 -> new Raw("123456789012345678901234567890");
      case 8 -> "";
      case 9 -> "x";
      case 10 -> "x".repeat(10_000);
      case 11 -> List.of();
      case 12 -> List.of(1, "a", List.of());
      case 13 -> Map.of();
      case 14 -> Map.of("a", Map.of("b", List.of()));
      case 15 -> new Raw(nest("[", "]", 500));
      case 16 -> "ü\u202E\uD83D\uDE00";
      case 17 -> "\u0000";
      case 18 -> new Raw("-0.0");
      case 19 -> Long.MAX_VALUE;
      case 20 -> "../../etc/passwd";
      default -> 0.05;
    };
  }

  /** A pid that no process has: negative, zero, this JVM's own, above Linux's pid_max, not whole, not a number. */
  private static Object pid(Random r) {
    return switch (r.nextInt(10)) {
      case 0 -> 0;
      case 1 -> -1;
      case 2 -> ProcessHandle.current().pid();
      case 3 -> 4_194_305L + r.nextInt(1_000_000_000);
      case 4 -> Long.MAX_VALUE;
      case 5 -> new Raw("9223372036854775808");
      case 6 -> new Raw("1e30");
      case 7 -> 4_194_305.5;
      case 8 -> "4194306";
      default -> new Raw("-9223372036854775809");
    };
  }

  private static Object focus(Random r) {
    return pick(r, "<>", "</Code/com.acme>", "</Code/com.acme/Hot/spin()V>", "<", "</Code/%00>", "</Nope/x>", "<" + "/Code/a".repeat(200) + ">",
        "</Code/com.acme,/Code/b>", "</Threads/main>", "<>".repeat(1000), "</Code/ü>");
  }

  private static Object searchBody(Random r) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("daemons", List.of(DAEMON));
    if (r.nextBoolean()) {
      m.put("budget", pick(r, 0.05, 0.5, 0.2));
    }
    if (r.nextBoolean()) {
      m.put("maxTimeSeconds", pick(r, 60, 1, 86_400));
    }
    if (r.nextBoolean()) {
      m.put("skip", List.of(pick(r, "io_wait", "sync_wait", "top", "nope")));
    }
    if (r.nextBoolean()) {
      m.put("settings", Map.of(pick(r, "cpu_bound.threshold", "search.sampling_interval_seconds", "search.max_active_experiments",
          "hypothesis.x", "search.skip", "budget.fraction"), pick(r, "0.3", "0.5", "1000", "-1", "abc", "", "1e999")));
    }
    return m;
  }

  private static String metricText(Random r) {
    String name = "fuzz_" + Long.toHexString(r.nextLong() & 0xffffffffL);
    String good = "metric " + name + " {\n description \"x\"\n unit fraction\n accumulates cpu_time\n refine /Code exclusive\n combine sum\n"
        + " report fraction\n}";
    return switch (r.nextInt(13)) {
      case 0, 1, 2 -> good;
      case 3 -> good.substring(0, r.nextInt(good.length()));
      case 4 -> "metric " + name + " {\n unit bytes/count\n value " + "(".repeat(pick(r, 50, 5000, 100_000)) + "io_bytes" + "\n combine avg\n}";
      case 5 -> "metric " + name + " {\n description \"x\"\n unit fraction\n accumulates duration of park\n when "
          + "not ".repeat(pick(r, 50, 20_000)) + "/Threads/worker\n combine sum\n report fraction\n}";
      case 6 -> "metric " + name + " {\n unit bytes/count\n value io_bytes" + " / io_ops".repeat(pick(r, 50, 20_000)) + "\n combine avg\n}";
      case 7 -> good.replace(name, "x".repeat(pick(r, 300, 100_000)));
      case 8 -> good.replace("\"x\"", "\"\u0000\uFFFF\u00fc\"");
      case 9 -> "metric cpu {\n description \"again\"\n unit fraction\n accumulates cpu_time\n combine sum\n report fraction\n}";
      case 10 -> String.join("\n", java.util.Collections.nCopies(pick(r, 10, 2000), good.replace(name, name + "_" + r.nextInt(1_000_000))));
      case 11 -> "metric " + name + " {\n description \"x\"\n unit fraction\n accumulates duration of park\n when "
          + String.join(" and ", java.util.Collections.nCopies(pick(r, 8, 30, 200), "(/Threads/a or /Threads/b or /Code/c/**)"))
          + "\n refine /Code inclusive\n combine sum\n report fraction\n}";
      default -> "{".repeat(pick(r, 10, 50_000)) + "metric";
    };
  }

  // ---- JSON written by hand, so that it can hold what a JSON library would not write ----

  /** Text put into JSON as it is (a number no double holds, a nesting, …). */
  private record Raw(String text) {}

  private static Map<String, Object> obj(Object... kv) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static String json(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Raw raw) {
      return raw.text();
    }
    if (v instanceof String s) {
      StringBuilder b = new StringBuilder("\"");
      for (char c : s.toCharArray()) {
        switch (c) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          case '\n' -> b.append("\\n");
          default -> {
            if (c < 0x20) {
              b.append(String.format("\\u%04x", (int) c));
            } else {
              b.append(c);
            }
          }
        }
      }
      return b.append('"').toString();
    }
    if (v instanceof Map<?, ?> m) {
      return m.entrySet().stream().map(e -> json(e.getKey()) + ": " + json(e.getValue())).collect(Collectors.joining(", ", "{", "}"));
    }
    if (v instanceof List<?> l) {
      return l.stream().map(RestFuzzTest::json).collect(Collectors.joining(", ", "[", "]"));
    }
    return String.valueOf(v);
  }

  private static String nest(String open, String close, int depth) {
    return open.repeat(depth) + "1" + close.repeat(depth);
  }

  // ---- sending and reading, on a socket of its own per request ----

  /** An answer as read off the socket. */
  record Answer(int status, String head, byte[] body) {
    String contentType() {
      String type = header("content-type");
      return type == null ? "" : type.toLowerCase(Locale.ROOT);
    }

    String header(String name) {
      for (String line : head.split("\r\n")) {
        if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
          return line.substring(name.length() + 1).trim();
        }
      }
      return null;
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      String text = text();
      return printable(head).replace("\\r\\n", " | ") + " || " + printable(text.length() > 600 ? text.substring(0, 600) + "…" : text);
    }
  }

  private Answer exchange(Req q) throws IOException {
    byte[] request = q.bytes();
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      Thread writer = null;
      if (request.length <= 64 * 1024) {
        out.write(request);
        out.flush();
      } else {
        // The service may answer (413, 415) before it has read a large body; the answer is read meanwhile.
        writer = new Thread(() -> {
          try {
            out.write(request);
            out.flush();
          } catch (IOException e) {
            // the service closed the connection after answering
          }
        }, "fuzz-writer");
        writer.setDaemon(true);
        writer.start();
      }
      try {
        return read(socket.getInputStream(), q.method.equals("HEAD"));
      } catch (java.net.SocketException e) {
        if (q.mayGoUnanswered || writer != null) {
          return null;
        }
        throw e;
      }
    }
  }

  private static Answer read(InputStream in, boolean head) throws IOException {
    while (true) {
      String headText = readHead(in);
      if (headText == null) {
        return null;
      }
      String[] statusLine = headText.split("\r\n", 2)[0].split(" ", 3);
      int status = Integer.parseInt(statusLine[1]);
      if (status >= 100 && status < 200 && status != 101) {
        continue;
      }
      Map<String, String> headers = new HashMap<>();
      for (String line : headText.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
      }
      if (head || status == 101 || status == 204 || status == 304) {
        return new Answer(status, headText, new byte[0]);
      }
      if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
          String size = readLine(in);
          int n = Integer.parseInt(size.split(";")[0].trim(), 16);
          if (n == 0) {
            while (!readLine(in).isEmpty()) {
              // trailers
            }
            return new Answer(status, headText, body.toByteArray());
          }
          body.write(in.readNBytes(n));
          readLine(in);
        }
      }
      if (headers.containsKey("content-length")) {
        return new Answer(status, headText, in.readNBytes(Integer.parseInt(headers.get("content-length"))));
      }
      return new Answer(status, headText, in.readAllBytes());
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new IOException("the answer ended inside its head: " + printable(head.toString(StandardCharsets.ISO_8859_1)));
      }
      head.write(b);
      matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3)) ? matched + 1
          : b == '\r' ? 1 : 0;
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    return text.substring(0, text.length() - 4);
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c = in.read(); c >= 0; c = in.read()) {
      if (c == '\n') {
        return b.toString().strip();
      }
      b.append((char) c);
    }
    throw new IOException("the answer ended inside a chunk");
  }

  // ---- files outside the data directory ----

  /**
   * Every file and directory under the working directory and the temp directory, with its size and
   * modification time; left out: the service's data directory, this JVM's own Vert.x file cache and
   * hsperfdata, and the build tool's report files (it writes this test's output there as it runs).
   */
  private Map<Path, String> files() throws IOException {
    Map<Path, String> all = new TreeMap<>();
    Path work = Path.of("").toAbsolutePath();
    Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    Set<Path> skipped = Set.of(data.toAbsolutePath(), fileCache.toAbsolutePath(), work.resolve("target/surefire-reports"),
        work.resolve("target/surefire"), tmp.resolve("hsperfdata_" + System.getProperty("user.name")).resolve(Long.toString(ProcessHandle.current().pid())));
    for (Path start : tmp.startsWith(work) ? List.of(work) : List.of(work, tmp)) {
      Files.walkFileTree(start, new java.nio.file.SimpleFileVisitor<>() {
        @Override
        public java.nio.file.FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          if (skipped.contains(dir.toAbsolutePath())) {
            return java.nio.file.FileVisitResult.SKIP_SUBTREE;
          }
          all.put(dir, "dir");
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          if (!skipped.contains(file.toAbsolutePath())) {
            all.put(file, attrs.size() + " bytes, modified " + attrs.lastModifiedTime());
          }
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
          return java.nio.file.FileVisitResult.CONTINUE;
        }
      });
    }
    return all;
  }

  private static List<String> diff(Map<Path, String> before, Map<Path, String> after) {
    List<String> changes = new ArrayList<>();
    after.forEach((p, what) -> {
      String was = before.get(p);
      if (was == null) {
        changes.add("created " + p + " (" + what + ")");
      } else if (!was.equals(what) && !was.equals("dir")) {
        changes.add("changed " + p + ": " + was + " -> " + what);
      }
    });
    before.keySet().stream().filter(p -> !after.containsKey(p)).forEach(p -> changes.add("removed " + p));
    return changes;
  }

  // ---- small helpers ----

  @SafeVarargs
  private static <T> T pick(Random r, T... choices) {
    return choices[r.nextInt(choices.length)];
  }

  private static <T> T pick(Random r, List<T> choices) {
    return choices.get(r.nextInt(choices.size()));
  }

  /** {@code s} as UTF-8 bytes, one char a byte (for a head written as ISO-8859-1). */
  private static String raw(String s) {
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] cat(byte[] a, byte[] b) {
    byte[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '\r') {
        b.append("\\r");
      } else if (c == '\n') {
        b.append("\\n");
      } else if (c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0) {
        b.append(String.format("\\x%02x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
