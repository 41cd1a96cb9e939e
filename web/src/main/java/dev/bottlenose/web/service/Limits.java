package dev.bottlenose.web.service;

import java.time.Duration;

/**
 * How much the web layer starts in other people's JVMs at a time, per client and in all, and how long it
 * keeps what measures without anyone watching. A client is its remote address (and its token, when the
 * service has one).
 *
 * @param viewsPerClient live plots and VM-vs-app views one client may have at once
 * @param viewsInAll live plots and VM-vs-app views the service keeps at once
 * @param searchesPerClient searches one client may have running at once
 * @param searchesInAll searches the service runs at once (those of {@code demo} included)
 * @param unwatched how long a plot or VM-vs-app view lives without a WebSocket subscribed to it: after it
 *     was made, and after its last subscriber left (a page reloading, a socket reconnecting, comes back in time)
 */
record Limits(int viewsPerClient, int viewsInAll, int searchesPerClient, int searchesInAll, Duration unwatched) {
  /** The grace period of an unwatched live view. */
  static final Duration UNWATCHED = Duration.ofSeconds(30);
  /**
   * Each plot puts probes in a target; an attack with 597 plots on one hot method cost the target 86% of its
   * CPU, so about 0.15% a plot: 32 come to about 5%, the default search budget, and 8 leave room for four
   * clients. A VM-vs-app view counts as one (its metrics are mostly the VM's own events, not probes). A
   * search keeps itself within its budget (default 5%, at most 50% of the target's CPU), so the limit is on
   * how many budgets add up: 2 per client, 8 in all.
   */
  static final Limits DEFAULT = new Limits(8, 32, 2, 8, UNWATCHED);

  Limits withUnwatched(Duration grace) {
    return new Limits(viewsPerClient, viewsInAll, searchesPerClient, searchesInAll, grace);
  }
}
