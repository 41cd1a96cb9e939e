package dev.bottlenose.tests.browser;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through its own chromedriver (both from the system, nothing
 * downloaded). Screenshots go to {@code target/screenshots/}.
 */
final class Browser implements AutoCloseable {
  static final Path SCREENSHOTS = Paths.get("target", "screenshots");
  private final ChromeDriver driver;
  private final String base;

  private Browser(ChromeDriver driver, String base) {
    this.driver = driver;
    this.base = base;
  }

  static Browser open(String baseUrl) {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(System.getProperty("bottlenose.chromium", "/usr/bin/chromium"));
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=1600,900", "--no-first-run", "--disable-extensions", "--lang=en-GB");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(System.getProperty("bottlenose.chromedriver", "/usr/bin/chromedriver")))
        .usingAnyFreePort()
        .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    return new Browser(driver, baseUrl);
  }

  /** Opens a page of the app, e.g. {@code #/metrics}, and waits until the page's module has drawn it. */
  void go(String hash) {
    driver.get(base + "/" + hash);
    await(By.cssSelector("#page[data-page]"), Duration.ofSeconds(20));
  }

  WebElement await(By by, Duration timeout) {
    return new WebDriverWait(driver, timeout).until(ExpectedConditions.visibilityOfElementLocated(by));
  }

  WebElement awaitPresent(By by, Duration timeout) {
    return new WebDriverWait(driver, timeout).until(ExpectedConditions.presenceOfElementLocated(by));
  }

  WebElement find(By by) {
    return driver.findElement(by);
  }

  List<WebElement> findAll(By by) {
    return driver.findElements(by);
  }

  Object script(String js, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(js, args);
  }

  Object asyncScript(String js, Object... args) {
    return ((JavascriptExecutor) driver).executeAsyncScript(js, args);
  }

  ChromeDriver driver() {
    return driver;
  }

  /** Saves what the browser shows as {@code target/screenshots/<name>.png}. */
  Path screenshot(String name) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
    Path file = SCREENSHOTS.resolve(name + ".png");
    Files.move(shot.toPath(), file, StandardCopyOption.REPLACE_EXISTING);
    return file;
  }

  @Override
  public void close() {
    driver.quit();
  }
}
