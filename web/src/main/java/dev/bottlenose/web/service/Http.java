package dev.bottlenose.web.service;

import dev.bottlenose.web.cluster.Daemons;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Route handlers that answer JSON, and the one way errors become {@code {"error"}} answers. */
final class Http {
  private static final Logger LOG = Logger.getLogger(Http.class.getName());

  private Http() {}

  /** An answer other than 200 JSON: a status, a content type and a body. */
  record Reply(int status, String contentType, Buffer body) {
    static Reply json(int status, JsonObject body) {
      return new Reply(status, "application/json; charset=utf-8", Buffer.buffer(body.encode()));
    }
  }

  /** A handler whose future's JsonObject is answered with 200, a {@link Reply} as it says, a failure by {@link #fail}. */
  static Handler<RoutingContext> handle(Function<RoutingContext, Future<?>> action) {
    return ctx -> {
      Future<?> result;
      try {
        result = action.apply(ctx);
      } catch (RuntimeException e) {
        fail(ctx, e);
        return;
      }
      result.onComplete(ar -> {
        if (ar.failed()) {
          fail(ctx, ar.cause());
        } else if (ar.result() instanceof Reply r) {
          ctx.response().setStatusCode(r.status()).putHeader("Content-Type", r.contentType()).end(r.body());
        } else {
          ctx.response().putHeader("Content-Type", "application/json; charset=utf-8").end(((JsonObject) ar.result()).encode());
        }
      });
    };
  }

  /**
   * Before any body is read: a request with a body whose Content-Type is not {@code application/json}
   * (parameters allowed) is answered 415, so form, multipart and text bodies are never parsed. A browser
   * may send those across origins without asking; JSON it may not.
   */
  static void jsonBodiesOnly(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    if (hasBody(request)) {
      String type = request.getHeader("Content-Type");
      String media = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
      if (!media.equals("application/json")) {
        if (!request.isEnded()) {
          ctx.response().putHeader("Connection", "close");
        }
        fail(ctx, new ApiException(415, "request bodies must be JSON: send Content-Type: application/json, not "
            + (type == null ? "a body without Content-Type" : "'" + type + "'") + " (with curl: -H 'Content-Type: application/json')"));
        return;
      }
    }
    ctx.next();
  }

  private static boolean hasBody(HttpServerRequest request) {
    if (request.getHeader("Transfer-Encoding") != null) {
      return true;
    }
    String length = request.getHeader("Content-Length");
    try {
      return length != null && Long.parseLong(length.trim()) > 0;
    } catch (NumberFormatException e) {
      return true;
    }
  }

  /** The request body as a JSON object; 400 naming the problem when it is not one. */
  static JsonObject body(RoutingContext ctx) {
    String text = ctx.body() == null ? null : ctx.body().asString("UTF-8");
    if (text == null || text.isBlank()) {
      throw ApiException.badRequest("the request needs a JSON object body");
    }
    try {
      Object o = io.vertx.core.json.Json.decodeValue(text);
      if (!(o instanceof JsonObject j)) {
        throw ApiException.badRequest("the body must be a JSON object, not " + text.strip().charAt(0) + "...");
      }
      return j;
    } catch (DecodeException e) {
      throw ApiException.badRequest("malformed JSON body: " + e.getMessage());
    }
  }

  static void fail(RoutingContext ctx, Throwable e) {
    int status = status(e);
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    if (status == 500) {
      LOG.log(Level.WARNING, ctx.request().method() + " " + ctx.request().path() + " failed", e);
    }
    if (!ctx.response().ended()) {
      ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json; charset=utf-8")
          .end(errorBody(e, message).encode());
    }
  }

  private static JsonObject errorBody(Throwable e, String message) {
    JsonObject body = new JsonObject().put("error", message);
    if (e instanceof ApiException a && a.details() != null) {
      body.mergeIn(a.details());
    }
    return body;
  }

  static int status(Throwable e) {
    if (e instanceof ApiException a) {
      return a.status();
    }
    if (e instanceof Daemons.DaemonException d) {
      return d.status();
    }
    if (e instanceof ReplyException r) {
      if (r.failureType() == ReplyFailure.NO_HANDLERS || r.failureType() == ReplyFailure.TIMEOUT) {
        return 503;
      }
      int code = r.failureCode();
      return code >= 400 && code < 600 ? code : 500;
    }
    if (e instanceof IllegalArgumentException) {
      return 400;
    }
    return 500;
  }
}
