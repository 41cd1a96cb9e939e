package dev.bottlenose.daemon.attach;

import dev.bottlenose.agent.AgentOptions;
import dev.bottlenose.agent.wire.Handover;
import dev.bottlenose.bus.PrivateDirectory;
import dev.bottlenose.daemon.channel.Uids;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The socket of a waiting agent: an agent loaded without options ({@code -javaagent:bottlenose-agent.jar}, in
 * {@code JAVA_TOOL_OPTIONS} say) listens on {@code agents/<pid>.sock} in the user's private run directory
 * ({@link PrivateDirectory}) until a daemon hands it the option string an attach would pass; it then connects
 * back to the daemon as an attached agent does, with no agent loaded through the Attach API. Only this user's
 * own directory is looked in, only a socket file of this user's is used, and the agent takes options only
 * from a process of its own user.
 */
public final class AgentSocket {
  static final String DIRECTORY = "agents";
  static final String SUFFIX = ".sock";
  /** How long the agent has to take the line and to answer it. */
  static final long ANSWER_MILLIS = 10_000;

  private AgentSocket() {}

  /** The socket file of process {@code pid}'s waiting agent, if one is there (whether or not it answers). */
  public static Optional<Path> find(long pid) {
    return directory().map(d -> d.resolve(pid + SUFFIX)).filter(AgentSocket::isOwnSocket);
  }

  /** Process {@code pid}'s waiting agent, if it has one that answers now. */
  public static Optional<Path> answering(long pid) {
    return find(pid).filter(AgentSocket::answers);
  }

  /** The pids whose waiting agent answers now. */
  public static Set<Long> waiting() {
    Set<Long> pids = new TreeSet<>();
    Optional<Path> dir = directory();
    if (dir.isEmpty()) {
      return pids;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir.get(), "*" + SUFFIX)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        String pid = name.substring(0, name.length() - SUFFIX.length());
        if (pid.matches("[1-9][0-9]{0,18}") && isOwnSocket(f) && answers(f)) {
          pids.add(Long.parseLong(pid));
        }
      }
    } catch (IOException | RuntimeException e) {
      // an unreadable directory has no agent a daemon could reach either
    }
    return pids;
  }

  /** Whether an agent listens on {@code socket}: connects and closes without a word, which the agent ignores. */
  public static boolean answers(Path socket) {
    try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Hands {@code options} to the agent of process {@code pid} listening on {@code socket}; returns once it has
   * answered {@code ok}, and throws with its {@code error:} message, or when it does not answer.
   */
  public static void hand(long pid, Path socket, AgentOptions options) throws AttachException {
    String answer;
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      Handover.writeLine(channel, options.toString(), ANSWER_MILLIS);
      answer = Handover.readLine(channel, ANSWER_MILLIS);
    } catch (IOException e) {
      throw new AttachException("cannot reach the waiting agent of process " + pid + " at " + socket + ": "
          + e.getMessage(), e);
    }
    if (Handover.OK.equals(answer)) {
      return;
    }
    if (answer != null && answer.startsWith(Handover.ERROR)) {
      throw new AttachException("the waiting agent of process " + pid + " did not take the options: "
          + answer.substring(Handover.ERROR.length()));
    }
    throw new AttachException("the waiting agent of process " + pid + " at " + socket + (answer == null
        ? " closed the connection unanswered (it takes options only from a process of its own user)"
        : " answered '" + answer + "'"));
  }

  /** {@code agents} in this user's private run directory, if it exists and is private; never made here. */
  static Optional<Path> directory() {
    String env = System.getenv(PrivateDirectory.HOME_ENV);
    Path home = env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".bottlenose");
    if (!Files.isDirectory(home.resolve("run").resolve(DIRECTORY), LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try {
      // every level exists, so this only checks them: this user's, private, no link
      return Optional.of(PrivateDirectory.at(home).subdirectory("run").subdirectory(DIRECTORY).path());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A socket file (not a link) of this process's user. */
  private static boolean isOwnSocket(Path file) {
    try {
      PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.isOther() && Uids.owner(file) == Uids.self();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
