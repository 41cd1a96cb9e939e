package dev.bottlenose.web.service;

import java.time.Duration;

/**
 * How long the service keeps what measures in someone's JVM without anyone watching it.
 *
 * @param unwatched how long a plot or VM-vs-app view lives without a WebSocket subscribed to it: after it
 *     was made, and after its last subscriber left (a page reloading, a socket reconnecting, comes back in time)
 */
record Limits(Duration unwatched) {
  /** The grace period of an unwatched live view. */
  static final Duration UNWATCHED = Duration.ofSeconds(30);
  static final Limits DEFAULT = new Limits(UNWATCHED);
}
