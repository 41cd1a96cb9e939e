package dev.bottlenose.web.service;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Who may ask, checked before every route, in this order:
 * <ol>
 *   <li>({@link #admit}, before the router) The {@code Host} header must name this service: a loopback name
 *       ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}) or the host it was bound to, with any port; else
 *       421. A page of another site whose name was rebound to this machine's address (DNS rebinding) sends its
 *       own name, and is refused. A request target that is not a path, or a body whose length cannot be told
 *       (a {@code Transfer-Encoding} that does not end in {@code chunked}), is 400.
 *   <li>The rules below see the path as the router does, normalized ({@code /x/../api/jvms} is
 *       {@code /api/jvms}), so no spelling of an API path escapes them.
 *   <li>A request from a page of another origin is refused with 403: an {@code Origin} other than
 *       {@code http://<the request's Host>} on a request that changes state (any method but GET, HEAD and
 *       OPTIONS, and the {@code /api/live} WebSocket upgrade) or on any guarded request ({@link #isGuarded}:
 *       {@code /api/}, {@code /health}, {@code /metrics}), and {@code Sec-Fetch-Site: cross-site} or
 *       {@code same-site} on those. Requests without these headers (curl, scripts, Prometheus) pass.
 *   <li>The token rule: on loopback no token is needed; any other address needs one, and then (or whenever
 *       one is set) every guarded request carries it as the {@value #COOKIE} cookie or
 *       {@code Authorization: Bearer T} (how a Prometheus scraper sends it). The pages themselves (public
 *       code) load without it: the page reads the token from its URL's fragment ({@code /#token=T}, which
 *       browsers never send to a server), posts it to {@code POST /api/session} (see {@link #session}) for the
 *       cookie, and removes the fragment. A token is never accepted in a query string.
 * </ol>
 */
final class Access implements Handler<RoutingContext> {
  static final String COOKIE = "bottlenose_token";
  static final String SESSION = "/api/session";
  /** The routing-context key of the client ({@link #client}). */
  private static final String CLIENT = "bottlenose.client";
  private static final List<String> LOOPBACK_NAMES = List.of("localhost", "127.0.0.1", "::1");
  /** The paths outside {@code /api/} that are guarded as the API is: the service's health and its metrics. */
  private static final List<String> OPERATIONS = List.of("/health", "/metrics");
  private final String token;
  private final Set<String> hosts;
  /** The allowed names as the refusal tells them: not this machine's every address, which a rebinding page could read. */
  private final String allowed;

  private Access(String token, String host, Set<String> hosts) {
    this.token = token;
    this.hosts = hosts;
    Set<String> told = new LinkedHashSet<>(LOOPBACK_NAMES);
    told.add(bare(host));
    this.allowed = String.join(", ", told.stream().map(h -> h.contains(":") ? "[" + h + "]" : h).toList())
        + (hosts.size() > told.size() ? " and this machine's names and addresses" : "") + ", with any port";
  }

  /** The rule for a service bound to {@code host}; refuses a non-loopback host without a token. */
  static Access forHost(String host, String token) {
    String t = token == null || token.isBlank() ? null : token;
    if (t == null && !isLoopback(host)) {
      throw new IllegalArgumentException("binding the web service to " + host + " (not loopback) needs a token:"
          + " give --token-file FILE or set BOTTLENOSE_WEB_TOKEN, then open http://" + host + ":<port>/#token=T once");
    }
    return new Access(t, host, allowedHosts(host));
  }

  /**
   * The names a request's Host may carry: the loopback names, the bound host, and for a wildcard bind
   * ({@code 0.0.0.0}, {@code ::}) this machine's names and its interfaces' addresses.
   */
  static Set<String> allowedHosts(String host) {
    Set<String> names = new LinkedHashSet<>(LOOPBACK_NAMES);
    names.add(bare(host));
    try {
      if (InetAddress.getByName(host).isAnyLocalAddress()) {
        InetAddress local = InetAddress.getLocalHost();
        names.add(bare(local.getHostName()));
        names.add(bare(local.getCanonicalHostName()));
        for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
          for (InetAddress a : Collections.list(n.getInetAddresses())) {
            String text = a.getHostAddress();
            int zone = text.indexOf('%');
            names.add(bare(zone < 0 ? text : text.substring(0, zone)));
          }
        }
      }
    } catch (UnknownHostException | SocketException e) {
      // the names already gathered are all that can be told
    }
    return Collections.unmodifiableSet(names);
  }

  /** Lower case, without the brackets of an IPv6 address. */
  private static String bare(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
  }

  static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown host '" + host + "'", e);
    }
  }

  boolean needsToken() {
    return token != null;
  }

  /**
   * What is checked before the router sees a request: the Host (421), a target that is a path, and a body
   * whose end can be told (400). False when the request was answered here.
   */
  boolean admit(HttpServerRequest request) {
    HostAndPort authority;
    try {
      authority = request.authority();
    } catch (RuntimeException e) {
      authority = null;
    }
    if (authority == null || !hosts.contains(bare(authority.host()))) {
      String given = request.getHeader("Host");
      refuse(request, 421, (given == null ? "a request without a Host header" : "Host '" + given + "'")
          + " does not name this service, so it is refused (a page of another site may have pointed its name at this"
          + " machine); allowed: " + allowed);
      return false;
    }
    String path = request.path();
    if (path == null || !path.startsWith("/")) {
      refuse(request, 400, "the request target '" + request.uri() + "' is not a path starting with '/'");
      return false;
    }
    List<String> codings = request.headers().getAll("Transfer-Encoding");
    if (!codings.isEmpty()) {
      String[] all = String.join(",", codings).split(",");
      if (!all[all.length - 1].trim().equalsIgnoreCase("chunked")) {
        request.response().putHeader("Connection", "close");
        refuse(request, 400, "Transfer-Encoding '" + String.join(", ", codings) + "' does not end in chunked, so the body's"
            + " length cannot be told: send Content-Length, or Transfer-Encoding: chunked");
        return false;
      }
    }
    return true;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    String path;
    try {
      path = ctx.normalizedPath();
    } catch (IllegalArgumentException e) {
      refuse(request, 400, "malformed request path '" + request.path() + "': " + e.getMessage());
      return;
    }
    try {
      ctx.queryParams();
    } catch (RuntimeException e) {
      refuse(request, 400, "malformed query string '" + request.query() + "': " + e.getMessage());
      return;
    }
    boolean guarded = isGuarded(path);
    if (guarded || changesState(request, path)) {
      String site = request.getHeader("Sec-Fetch-Site");
      if ("cross-site".equalsIgnoreCase(site) || "same-site".equalsIgnoreCase(site)) {
        refuse(request, 403, "a request from a page of another site (Sec-Fetch-Site: " + site + ") is refused: only this"
            + " service's own pages, and clients that send no Origin (curl, scripts), may use " + path);
        return;
      }
      String origin = request.getHeader("Origin");
      HostAndPort authority = request.authority();
      if (origin != null && !sameOrigin(origin, authority)) {
        refuse(request, 403, "Origin '" + origin + "' is not this service's own (" + ownOrigin(authority) + "): requests"
            + " from pages of other origins are refused; clients that send no Origin (curl, scripts) are not");
        return;
      }
    }
    String address = request.remoteAddress() == null ? "unknown" : request.remoteAddress().hostAddress();
    ctx.put(CLIENT, token == null ? address : address + " (with the token)");
    if (token == null || !guarded || request.method() == HttpMethod.POST && path.equals(SESSION)) {
      ctx.next();
      return;
    }
    Cookie cookie = request.getCookie(COOKIE);
    String auth = request.getHeader("Authorization");
    boolean ok = cookie != null && matches(cookie.getValue())
        || auth != null && auth.startsWith("Bearer ") && matches(auth.substring("Bearer ".length()).trim());
    if (ok) {
      ctx.next();
      return;
    }
    String why = cookie != null || auth != null ? "wrong token" : "this service needs a token";
    refuse(request, 401, why + ": open the address 'bottlenose serve' printed (http://…/#token=…) once in this browser,"
        + " or send Authorization: Bearer T");
  }

  /**
   * Whether a normalized path is guarded (the token and origin rules hold for it): the API's, {@code /health} and
   * {@code /metrics}, each with whatever follows a slash.
   */
  static boolean isGuarded(String path) {
    for (String guarded : OPERATIONS) {
      if (path.equals(guarded) || path.startsWith(guarded + "/")) {
        return true;
      }
    }
    return path.equals("/api") || path.startsWith("/api/");
  }

  /**
   * {@code POST /api/session} {@code {"token": T}} (a non-empty string, as the contract checked): the right token
   * (compared in constant time) gets the {@value #COOKIE} cookie (HttpOnly, SameSite=Strict), a wrong one 401 and
   * no cookie. A service without a token answers {@code {"tokenNeeded": false}}.
   */
  Future<?> session(RoutingContext ctx) {
    String given = Http.body(ctx).getString("token");
    if (token == null) {
      return Future.succeededFuture(new JsonObject().put("tokenNeeded", false));
    }
    if (!matches(given)) {
      return Future.failedFuture(new ApiException(401, "wrong token: no session cookie was set"));
    }
    ctx.response().addCookie(Cookie.cookie(COOKIE, token).setHttpOnly(true).setSameSite(CookieSameSite.STRICT).setPath("/"));
    return Future.succeededFuture(new JsonObject().put("tokenNeeded", true).put("session", true));
  }

  /**
   * Who asks, for the limits of {@link Limits}: the remote address, and the token when the service has one
   * (every holder of one token is the same client at one address).
   */
  static String client(RoutingContext ctx) {
    String client = ctx.get(CLIENT);
    return client == null ? "unknown" : client;
  }

  /** Any method but GET, HEAD and OPTIONS, and a WebSocket upgrade (the live socket streams what a page may not read). */
  static boolean changesState(HttpServerRequest request, String normalizedPath) {
    HttpMethod m = request.method();
    String upgrade = request.getHeader("Upgrade");
    return !(m == HttpMethod.GET || m == HttpMethod.HEAD || m == HttpMethod.OPTIONS)
        || upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket") || normalizedPath.equals("/api/live");
  }

  /** Whether {@code origin} is {@code http://} and the same host and port as the request's Host. */
  static boolean sameOrigin(String origin, HostAndPort authority) {
    URI uri;
    try {
      uri = new URI(origin);
    } catch (URISyntaxException e) {
      return false;
    }
    if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getRawPath() != null && !uri.getRawPath().isEmpty()
        || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
      return false;
    }
    int port = uri.getPort() < 0 ? 80 : uri.getPort();
    int hostPort = authority.port() < 0 ? 80 : authority.port();
    return bare(uri.getHost()).equals(bare(authority.host())) && port == hostPort;
  }

  private static String ownOrigin(HostAndPort authority) {
    return "http://" + authority.host() + (authority.port() < 0 ? "" : ":" + authority.port());
  }

  private static void refuse(HttpServerRequest request, int status, String message) {
    request.response().setStatusCode(status).putHeader("Content-Type", "application/json; charset=utf-8")
        .end(new JsonObject().put("error", message).encode());
  }

  private boolean matches(String given) {
    return MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
  }
}
