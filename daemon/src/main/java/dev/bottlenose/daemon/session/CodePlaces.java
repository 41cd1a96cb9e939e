package dev.bottlenose.daemon.session;

import dev.bottlenose.model.CodeNames;
import dev.bottlenose.model.ResourcePath;
import java.util.List;

/**
 * The commands' {@code --focus}, {@code --callee} and {@code resources PATH}, and the service's foci (the daemon's
 * {@code codepath} request), in the words users know: a Java name ({@code com.acme.Cache::get}, {@code
 * com.acme.Cache.get(Object)}, a class, a package) is resolved to its {@code /Code} path in the attached target
 * ({@link CodeNames}); a path or a focus is taken as it is.
 */
public final class CodePlaces {
  private CodePlaces() {}

  /** {@code text} as a resource path: a Java name resolved in the target, anything else unchanged. */
  public static String path(TargetSession session, String text) {
    return CodeNames.isJavaName(text) ? CodeNames.resolve(text, p -> children(session, p)).toString() : text;
  }

  /** {@code text} as a focus: a Java name resolved in the target and put in angle brackets, anything else unchanged. */
  public static String focus(TargetSession session, String text) {
    return CodeNames.isJavaName(text) ? "<" + path(session, text) + ">" : text;
  }

  private static List<ResourcePath> children(TargetSession session, ResourcePath path) {
    try {
      return session.resources(path.toString(), 1).stream().map(ResourceEntry::path)
          .filter(p -> p.depth() == path.depth() + 1).toList();
    } catch (SessionException e) {
      if (e.failure() == SessionException.Failure.NOT_FOUND) {
        return List.of();
      }
      throw e;
    }
  }
}
