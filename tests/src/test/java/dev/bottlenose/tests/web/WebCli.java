package dev.bottlenose.tests.web;

import dev.bottlenose.tests.harness.WebProcess;
import java.io.IOException;
import java.time.Duration;

/** The service's command line ({@code java -jar bottlenose-web-all.jar …}) run to its end, in the cluster named by a secret. */
final class WebCli {
  /** What one run printed and how it ended. */
  record Run(int exitCode, String out, String err) {}

  private WebCli() {}

  static Run run(String secret, long timeoutSeconds, String... args) throws IOException, InterruptedException {
    try (WebProcess p = WebProcess.start(secret, args)) {
      int code = p.waitFor(Duration.ofSeconds(timeoutSeconds));
      if (code < 0) {
        throw new AssertionError("bottlenose " + String.join(" ", args) + " did not end within " + timeoutSeconds
            + " s; it printed:\n" + p.out() + "\n--- stderr:\n" + p.err());
      }
      return new Run(code, p.out(), p.err());
    }
  }
}
