package dev.bottlenose.tests.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.web.cluster.Daemons;
import dev.bottlenose.web.service.WebService;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A service with a token, in a real browser: the page opened without the token gets nothing from the API;
 * opened at the address {@code serve} prints ({@code /#token=…}) it trades the token for the session cookie,
 * the token leaves the address bar, the API answers and the live socket connects; the cookie is out of the
 * page's scripts' reach; a wrong token is said so.
 */
class TokenSignInTest {
  private static final String TOKEN = "sign-in-token-" + Long.toHexString(System.nanoTime());

  @Test
  void thePrintedAddressSignsTheBrowserInAndTheTokenLeavesTheAddressBar() throws Exception {
    Vertx vertx = Vertx.vertx();
    Path data = Files.createTempDirectory("bottlenose-token-");
    WebService service = WebService.start(vertx, new Daemons(vertx, Path.of("no-daemon.jar")),
        new WebService.Options("127.0.0.1", 0, TOKEN, data)).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    String base = "http://127.0.0.1:" + service.port();
    try (Browser browser = Browser.open(base)) {
      browser.go("#/jvms");
      assertThat(status(browser)).as("the API without the token").isEqualTo(401L);

      browser.driver().get(base + "/#token=" + TOKEN);
      new WebDriverWait(browser.driver(), Duration.ofSeconds(20)).until(d -> !d.getCurrentUrl().contains(TOKEN));
      browser.await(By.cssSelector("#page[data-page]"), Duration.ofSeconds(20));
      assertThat(status(browser)).as("the API after signing in").isEqualTo(200L);
      browser.await(By.cssSelector("#live-status.up"), Duration.ofSeconds(30));
      assertThat((String) browser.script("return document.cookie")).as("cookies a page script can read").doesNotContain(TOKEN);
      browser.screenshot("signed-in");

      browser.driver().manage().deleteAllCookies();
      browser.driver().get(base + "/#token=wrong-" + TOKEN);
      browser.await(By.cssSelector("[role=alert]"), Duration.ofSeconds(20));
      assertThat(browser.find(By.cssSelector("[role=alert]")).getText()).contains("signing in failed");
      assertThat(status(browser)).isEqualTo(401L);
    } finally {
      service.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** The status of {@code GET /api/jvms} fetched by the page itself (so with its cookies and its Origin). */
  private static long status(Browser browser) {
    return (Long) browser.asyncScript("const done = arguments[arguments.length - 1];"
        + " fetch('/api/jvms').then(r => done(r.status), e => done(-1));");
  }
}
