package dev.bottlenose.web.service;

/** A request the service answers with {@code status} and {@code {"error": message}}. */
public final class ApiException extends RuntimeException {
  private final int status;
  private final io.vertx.core.json.JsonObject details;

  public ApiException(int status, String message) {
    this(status, message, null);
  }

  ApiException(int status, String message, io.vertx.core.json.JsonObject details) {
    super(message);
    this.status = status;
    this.details = details;
  }

  /** Fields answered beside {@code error}, or null. */
  io.vertx.core.json.JsonObject details() {
    return details;
  }

  public int status() {
    return status;
  }

  static ApiException badRequest(String message) {
    return new ApiException(400, message);
  }

  static ApiException notFound(String message) {
    return new ApiException(404, message);
  }
}
