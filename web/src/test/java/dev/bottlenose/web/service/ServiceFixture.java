package dev.bottlenose.web.service;

import dev.bottlenose.web.cluster.Daemons;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A real service on 127.0.0.1, port 0, on a local (unclustered) Vert.x: no daemon is registered. */
final class ServiceFixture implements AutoCloseable {
  final Vertx vertx;
  final WebService service;
  final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  ServiceFixture(Path data, String token) throws Exception {
    this(new WebService.Options("127.0.0.1", 0, token, data));
  }

  ServiceFixture(WebService.Options options) throws Exception {
    this(Vertx.vertx(), options);
  }

  /** On {@code vertx} (closed with the fixture). */
  ServiceFixture(Vertx vertx, WebService.Options options) throws Exception {
    this(vertx, options, new ServiceMetrics());
  }

  /** With {@code metrics}, on a Vert.x of its own that reports its meters there too, as {@code serve} runs. */
  ServiceFixture(ServiceMetrics metrics, WebService.Options options) throws Exception {
    this(Vertx.builder().withMetrics(metrics.vertxMetrics()).build(), options, metrics);
  }

  private ServiceFixture(Vertx vertx, WebService.Options options, ServiceMetrics metrics) throws Exception {
    this.vertx = vertx;
    service = WebService.start(vertx, new Daemons(vertx, Path.of("no-daemon.jar")), options, metrics)
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

  /** POST with a JSON body. */
  HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** {@code method path} with {@code body} (none if null) and the headers as name, value, …. */
  HttpResponse<String> send(String method, String path, String body, String... headers) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).method(method,
        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** An answer read off the socket: the status, the header block and the body. */
  record Raw(int status, String headers, String body) {
    JsonObject json() {
      return new JsonObject(body);
    }
  }

  /**
   * One HTTP/1.1 request written on a plain socket, for what java.net.http will not send (another Host):
   * {@code headLines} are whole header lines; Content-Length is added for a body.
   */
  Raw raw(String method, String path, String body, String... headLines) throws IOException {
    return rawFrom(null, method, path, body, headLines);
  }

  /** {@link #raw} from the local address {@code from} (e.g. 127.0.0.2, another client on loopback); null: any. */
  Raw rawFrom(java.net.InetAddress from, String method, String path, String body, String... headLines) throws IOException {
    try (Socket socket = new Socket(java.net.InetAddress.getByName("127.0.0.1"), service.port(), from, 0)) {
      socket.setSoTimeout(20_000);
      byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
      if (java.util.Arrays.stream(headLines).noneMatch(l -> l.regionMatches(true, 0, "Host:", 0, 5))) {
        head.append("Host: 127.0.0.1:").append(service.port()).append("\r\n");
      }
      for (String line : headLines) {
        head.append(line).append("\r\n");
      }
      if (body != null) {
        head.append("Content-Length: ").append(content.length).append("\r\n");
      }
      head.append("Connection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(content);
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      String text = all.toString(StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      String headers = end < 0 ? text : text.substring(0, end);
      return new Raw(Integer.parseInt(headers.split(" ", 3)[1]), headers, end < 0 ? "" : text.substring(end + 4));
    }
  }

  /**
   * {@code request} written as it is (it should ask for {@code Connection: close}), and the answer read until
   * the service closes the connection; null when it closed it without answering.
   */
  Raw exchange(byte[] request) throws IOException {
    try (Socket socket = new Socket(java.net.InetAddress.getByName("127.0.0.1"), service.port())) {
      socket.setSoTimeout(20_000);
      socket.getOutputStream().write(request);
      socket.getOutputStream().flush();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      try {
        socket.getInputStream().transferTo(all);
      } catch (java.net.SocketException reset) {
        // closed by the service: whatever arrived before is the answer
      }
      if (all.size() == 0) {
        return null;
      }
      String text = all.toString(StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      String headers = end < 0 ? text : text.substring(0, end);
      return new Raw(Integer.parseInt(headers.split(" ", 3)[1]), headers, end < 0 ? "" : text.substring(end + 4));
    }
  }

  /** {@link #exchange(byte[])} of text written one char a byte (ISO-8859-1). */
  Raw exchange(String request) throws IOException {
    return exchange(request.getBytes(StandardCharsets.ISO_8859_1));
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
