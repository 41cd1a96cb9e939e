package dev.bottlenose.web.service;

import dev.bottlenose.web.cluster.Daemons;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A real service on 127.0.0.1, port 0, on a local (unclustered) Vert.x: no daemon is registered. */
final class ServiceFixture implements AutoCloseable {
  final Vertx vertx = Vertx.vertx();
  final WebService service;
  final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  ServiceFixture(Path data, String token) throws Exception {
    service = WebService.start(vertx, new Daemons(vertx, Path.of("no-daemon.jar")), new WebService.Options("127.0.0.1", 0, token, data))
        .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + service.port() + path);
  }

  HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).GET();
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  HttpResponse<String> delete(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(path)).DELETE().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  @Override
  public void close() throws Exception {
    service.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }
}
