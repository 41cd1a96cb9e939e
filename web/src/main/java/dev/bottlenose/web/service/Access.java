package dev.bottlenose.web.service;

import io.vertx.core.Handler;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The token rule: on loopback no token is needed; any other address needs one, and then (or whenever one
 * is set) every request carries it as the {@value #COOKIE} cookie or {@code Authorization: Bearer T}.
 * {@code ?token=T} on a page sets the cookie and redirects to the same path without it.
 */
final class Access implements Handler<RoutingContext> {
  static final String COOKIE = "bottlenose_token";
  private final String token;

  private Access(String token) {
    this.token = token;
  }

  /** The rule for a service bound to {@code host}; refuses a non-loopback host without a token. */
  static Access forHost(String host, String token) {
    String t = token == null || token.isBlank() ? null : token;
    if (t == null && !isLoopback(host)) {
      throw new IllegalArgumentException("binding the web service to " + host + " (not loopback) needs a token:"
          + " give --token T or set BOTTLENOSE_WEB_TOKEN, then open http://" + host + ":<port>/?token=T once");
    }
    return new Access(t);
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

  @Override
  public void handle(RoutingContext ctx) {
    if (token == null) {
      ctx.next();
      return;
    }
    String query = ctx.request().getParam("token");
    if (query != null && matches(query)) {
      ctx.response().addCookie(Cookie.cookie(COOKIE, token).setHttpOnly(true).setSameSite(CookieSameSite.STRICT).setPath("/"));
      if (ctx.request().path().startsWith("/api/")) {
        ctx.next();
      } else {
        ctx.response().setStatusCode(303).putHeader("Location", ctx.request().path()).end();
      }
      return;
    }
    Cookie cookie = ctx.request().getCookie(COOKIE);
    String auth = ctx.request().getHeader("Authorization");
    boolean ok = cookie != null && matches(cookie.getValue())
        || auth != null && auth.startsWith("Bearer ") && matches(auth.substring("Bearer ".length()).trim());
    if (ok) {
      ctx.next();
      return;
    }
    String why = query != null || cookie != null || auth != null ? "wrong token" : "this service needs a token";
    ctx.response().setStatusCode(401).putHeader("Content-Type", "application/json; charset=utf-8")
        .end(new JsonObject().put("error", why + ": open /?token=T once, or send Authorization: Bearer T").encode());
  }

  private boolean matches(String given) {
    return MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
  }
}
