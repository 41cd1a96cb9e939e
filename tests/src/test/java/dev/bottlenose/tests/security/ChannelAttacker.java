package dev.bottlenose.tests.security;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What another local user would try against a Bottlenose agent channel, run by the tests as uid 65534
 * ({@code OtherUser}). JDK only. One line of output per finding; a test reads them.
 *
 * <ul>
 *   <li>{@code watch <millis>}: until the time is up, watches every process's {@code /proc/<pid>/cmdline} for a
 *       {@code -javaagent:…bottlenose-agent…} argument, takes any {@code token=} it names and tries to read any
 *       {@code tokenFile=}; and connects to every loopback TCP port that starts listening after it began (so
 *       it leaves the machine's older services alone), sending an agent hello with whatever token it has.
 *       Prints {@code watching} when it has its first picture, then {@code agent <pid> <argument>},
 *       {@code token-on-command-line <token>}, {@code token-file <path> read|unreadable: <why>},
 *       {@code port <n> refused|closed|silent|SERVED <frame>}, and finally
 *       {@code summary agents=… tokens=… ports=… served=…}.</li>
 *   <li>{@code connect <port> <token>}: one hello with the given token to the given port; prints the port line.</li>
 * </ul>
 */
public final class ChannelAttacker {
  private static final Pattern AGENT = Pattern.compile("-javaagent:\\S*bottlenose-agent\\S*");
  private static final Pattern TOKEN = Pattern.compile("[=,]token=([^,\\s]+)");
  private static final Pattern TOKEN_FILE = Pattern.compile("tokenFile=([^,\\s]+)");

  private final Set<Long> agentsSeen = new HashSet<>();
  private final Set<String> tokens = new LinkedHashSet<>();
  private final Set<Integer> oldPorts = new HashSet<>();
  private final Set<Integer> triedPorts = new HashSet<>();
  private int served;

  public static void main(String[] args) throws Exception {
    if (args[0].equals("connect")) {
      String outcome = hello(Integer.parseInt(args[1]), args[2]);
      System.out.println("port " + args[1] + " " + outcome);
      return;
    }
    new ChannelAttacker().watch(Long.parseLong(args[1]));
  }

  private void watch(long millis) throws Exception {
    oldPorts.addAll(listeningLoopbackPorts());
    System.out.println("watching pid=" + ProcessHandle.current().pid() + " uid=" + Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    System.out.flush();
    long end = System.nanoTime() + millis * 1_000_000;
    while (System.nanoTime() < end) {
      scanCommandLines();
      for (int port : listeningLoopbackPorts()) {
        if (!oldPorts.contains(port) && triedPorts.add(port)) {
          String token = tokens.isEmpty() ? "" : tokens.iterator().next();
          String outcome = hello(port, token);
          if (outcome.startsWith("SERVED")) {
            served++;
          }
          System.out.println("port " + port + " " + outcome);
        }
      }
      Thread.sleep(5);
    }
    System.out.println("summary agents=" + agentsSeen.size() + " tokens=" + tokens.size() + " ports=" + triedPorts.size()
        + " served=" + served);
  }

  private void scanCommandLines() {
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
      for (Path proc : procs) {
        long pid = Long.parseLong(proc.getFileName().toString());
        if (agentsSeen.contains(pid)) {
          continue;
        }
        String cmdline;
        try {
          cmdline = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
          continue;
        }
        Matcher agent = AGENT.matcher(cmdline);
        if (!agent.find()) {
          continue;
        }
        agentsSeen.add(pid);
        String argument = agent.group();
        System.out.println("agent " + pid + " " + argument);
        Matcher token = TOKEN.matcher(argument);
        if (token.find()) {
          tokens.add(token.group(1));
          System.out.println("token-on-command-line " + token.group(1));
        }
        Matcher file = TOKEN_FILE.matcher(argument);
        if (file.find()) {
          try {
            String read = Files.readString(Path.of(file.group(1))).trim();
            tokens.add(read);
            System.out.println("token-file " + file.group(1) + " read " + read);
          } catch (IOException | RuntimeException e) {
            System.out.println("token-file " + file.group(1) + " unreadable: " + e);
          }
        }
        System.out.flush();
      }
    } catch (IOException e) {
      System.out.println("cannot list /proc: " + e);
    }
  }

  /** Ports in state LISTEN on 127.0.0.1, ::1 or ::ffff:127.0.0.1 (or every address), from /proc/net/tcp{,6}. */
  static Set<Integer> listeningLoopbackPorts() {
    Set<Integer> ports = new HashSet<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      try {
        for (String line : Files.readAllLines(Path.of(table))) {
          String[] f = line.trim().split("\\s+");
          if (f.length < 4 || !"0A".equals(f[3])) {
            continue;
          }
          String[] local = f[1].split(":");
          if (local[0].equals("0100007F") || local[0].equals("0000000000000000FFFF00000100007F")
              || local[0].equals("00000000000000000000000001000000")) {
            ports.add(Integer.parseInt(local[1], 16));
          }
        }
      } catch (IOException e) {
        // no such table
      }
    }
    return ports;
  }

  /**
   * Connects to {@code port}, says hello as an agent would with {@code token}, and waits two seconds for a
   * frame: a daemon that took it for its agent would send requests.
   */
  static String hello(int port, String token) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      s.setSoTimeout(2000);
      String json = "{\"event\":\"hello\",\"token\":\"" + token + "\",\"pid\":" + ProcessHandle.current().pid()
          + ",\"javaVersion\":\"17\",\"mainClass\":\"evil.Main\",\"agentVersion\":\"0.1.0\",\"loadedBy\":\"premain\","
          + "\"retransformSupported\":true,\"calibration\":{},\"jfrRepository\":\"/tmp\"}";
      byte[] body = json.getBytes(StandardCharsets.UTF_8);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      out.writeInt(body.length);
      out.write(body);
      out.flush();
      InputStream in = s.getInputStream();
      DataInputStream data = new DataInputStream(in);
      int length;
      try {
        length = data.readInt();
      } catch (java.io.EOFException e) {
        return "closed";
      }
      if (length <= 0 || length > 1 << 20) {
        return "closed with non-frame bytes";
      }
      byte[] frame = new byte[length];
      data.readFully(frame);
      String text = new String(frame, StandardCharsets.UTF_8);
      return text.contains("\"op\"") ? "SERVED " + text : "answered " + text;
    } catch (SocketTimeoutException e) {
      return "silent";
    } catch (java.net.ConnectException e) {
      return "refused";
    } catch (IOException e) {
      return "closed: " + e.getMessage();
    }
  }
}
