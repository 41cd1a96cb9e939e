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
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.http.HttpServerOptions;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Route handlers that answer JSON, and the one way errors become {@code {"error"}} answers. */
final class Http {
  private static final Logger LOG = Logger.getLogger(Http.class.getName());
  /** The routing-context key of the decoded request body. */
  private static final String BODY = "bottlenose.body";

  private Http() {}

  /** An answer other than 200 JSON: a status, a content type, a body and other headers (name, value). */
  record Reply(int status, String contentType, Buffer body, Map<String, String> headers) {
    Reply {
      headers = Map.copyOf(headers);
    }

    Reply(int status, String contentType, Buffer body) {
      this(status, contentType, body, Map.of());
    }

    static Reply json(int status, JsonObject body) {
      return new Reply(status, "application/json; charset=utf-8", Buffer.buffer(body.encode()));
    }
  }

  /**
   * A file answered with 200 as it is on disk, read as it is sent (not into memory: a JFR recording is up to 80 MB),
   * with its content type and other headers.
   */
  record FileReply(java.nio.file.Path file, String contentType, Map<String, String> headers) {
    FileReply {
      headers = Map.copyOf(headers);
    }
  }

  /**
   * A handler whose future's JsonObject is answered with 200, a {@link Reply} or {@link FileReply} as it says, a
   * failure by {@link #fail}.
   */
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
          r.headers().forEach(ctx.response()::putHeader);
          ctx.response().setStatusCode(r.status()).putHeader("Content-Type", r.contentType()).end(r.body());
        } else if (ar.result() instanceof FileReply f) {
          f.headers().forEach(ctx.response()::putHeader);
          ctx.response().putHeader("Content-Type", f.contentType()).sendFile(f.file().toString())
              .onFailure(t -> fail(ctx, t));
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

  /**
   * The request body as a JSON object, read once per request; 400 naming the problem when it is not one (or not
   * UTF-8).
   */
  static JsonObject body(RoutingContext ctx) {
    JsonObject read = ctx.get(BODY);
    if (read == null) {
      read = decode(ctx);
      ctx.put(BODY, read);
    }
    return read;
  }

  private static JsonObject decode(RoutingContext ctx) {
    String text = ctx.body() == null || ctx.body().buffer() == null ? null : utf8(ctx.body().buffer().getBytes());
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

  /** The bytes as UTF-8; 400 naming the first byte that is not (a replacement character would change what was sent). */
  static String utf8(byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      return decoder.decode(in).toString();
    } catch (CharacterCodingException e) {
      throw ApiException.badRequest("the body is not UTF-8: byte " + in.position() + " (0x"
          + Integer.toHexString(bytes[Math.min(in.position(), bytes.length - 1)] & 0xff) + ") starts no UTF-8 character");
    }
  }

  /**
   * A request the HTTP decoder could not read (a malformed request line or header, a line or header block
   * over the decoder's limits): 414, 431 or 400 with {@code {"error"}}, then the connection is closed, since
   * where the next request would start is unknown.
   */
  static void invalidRequest(HttpServerRequest request) {
    Throwable cause = request.decoderResult() == null ? null : request.decoderResult().cause();
    int status;
    String message;
    if (cause instanceof TooLongHttpLineException) {
      status = 414;
      message = "the request line is longer than " + HttpServerOptions.DEFAULT_MAX_INITIAL_LINE_LENGTH + " bytes";
    } else if (cause instanceof TooLongHttpHeaderException) {
      status = 431;
      message = "the request's headers are larger than " + HttpServerOptions.DEFAULT_MAX_HEADER_SIZE + " bytes";
    } else {
      status = 400;
      message = "a malformed HTTP request" + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
    request.response().setStatusCode(status).putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Connection", "close").end(new JsonObject().put("error", message).encode())
        .onComplete(v -> request.connection().close());
  }

  static void fail(RoutingContext ctx, Throwable e) {
    int status = status(e);
    String message = e.getMessage() != null ? e.getMessage()
        : "an internal error (" + e.getClass().getSimpleName() + "); the service's log says more";
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
