package dev.bottlenose.agent;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;

/**
 * The target program of the agent's integration tests. It keeps the file named by its first argument
 * open, runs two threads ({@code bn-lock-1}, {@code bn-lock-2}) that contend for one {@link SharedLock},
 * and on standard input {@code tick N} calls {@link #tick} N times and prints
 * {@code ticked calls=N total=<all calls so far> sum=<checksum>}; {@code plugin load} loads {@link Plugin}
 * in a class loader of its own and {@code plugin drop} lets it be collected; {@code exit} ends it.
 */
public final class AgentWorkload {
  static final SharedLock LOCK = new SharedLock();
  static long ticks;
  static Object plugin;

  public static void main(String[] args) throws Exception {
    try (FileOutputStream kept = new FileOutputStream(args[0])) {
      kept.write("kept open\n".getBytes(StandardCharsets.UTF_8));
      kept.flush();
      for (int i = 1; i <= 2; i++) {
        Thread t = new Thread(AgentWorkload::contend, "bn-lock-" + i);
        t.setDaemon(true);
        t.start();
      }
      System.out.println("ready pid=" + ProcessHandle.current().pid());
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null && !line.equals("exit"); line = in.readLine()) {
        String[] words = line.trim().split("\\s+");
        if (words[0].equals("tick")) {
          int n = Integer.parseInt(words[1]);
          long sum = 0;
          for (int i = 0; i < n; i++) {
            sum += tick(i);
          }
          System.out.println("ticked calls=" + n + " total=" + ticks + " sum=" + sum);
        } else if (line.equals("plugin load")) {
          loadPlugin();
          System.out.println("plugin loaded");
        } else if (line.equals("plugin drop")) {
          System.out.println("plugin dropped collected=" + dropPlugin());
        }
      }
    }
  }

  private static void loadPlugin() throws Exception {
    URL classes = AgentWorkload.class.getProtectionDomain().getCodeSource().getLocation();
    ClassLoader loader = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader());
    plugin = loader.loadClass(AgentWorkload.class.getName() + "$Plugin").getDeclaredConstructor().newInstance();
  }

  private static boolean dropPlugin() {
    WeakReference<Class<?>> pluginClass = new WeakReference<>(plugin.getClass());
    plugin = null;
    for (int i = 0; i < 5 && pluginClass.get() != null; i++) {
      System.gc();
    }
    return pluginClass.get() == null;
  }

  static long tick(int i) {
    ticks++;
    return i % 7;
  }

  private static void contend() {
    while (true) {
      LOCK.hold();
    }
  }

  /** The monitor the lock threads fight over: each holds it 20 ms at a time. */
  static final class SharedLock {
    synchronized void hold() {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A class only a throw-away class loader ever loads (never named as a literal), so it can be unloaded. */
  public static final class Plugin {
    public Plugin() {}
  }

  private AgentWorkload() {}
}
