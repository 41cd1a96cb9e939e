package diag.classchurn;

import diag.Run;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * Planted: class loading. A plugin host that, for every request, loads its plugin class afresh in a new
 * class loader (as a misconfigured script engine or a per-request proxy factory does) and calls it once.
 * Known answer: class_load_time (below cpu_bound), at {@code diag.classchurn.PluginHost.load} or the
 * thread {@code host}.
 */
public final class PluginHost {
  static volatile long sink;

  /** The plugin: trivial, so loading it is all the work there is. */
  public static final class Plugin implements LongUnaryOperator {
    @Override
    public long applyAsLong(long x) {
      return x * 31 + 7;
    }
  }

  public static void main(String[] args) throws Exception {
    byte[] bytes = bytes(Plugin.class);
    Run.workers(List.of(new Run.Worker("host", () -> host(bytes))));
  }

  static void host(byte[] bytes) throws Exception {
    long x = 1;
    while (Run.running()) {
      x = load(bytes).applyAsLong(x);
      sink = x;
    }
  }

  static LongUnaryOperator load(byte[] bytes) throws Exception {
    Class<?> c = new OneClass(Plugin.class.getName(), bytes).loadClass(Plugin.class.getName());
    return (LongUnaryOperator) c.getDeclaredConstructor().newInstance();
  }

  private static byte[] bytes(Class<?> c) throws IOException {
    String file = c.getName().substring(c.getPackageName().length() + 1) + ".class";
    try (InputStream in = c.getResourceAsStream(file)) {
      return in.readAllBytes();
    }
  }

  /** Defines one class from bytes; everything else comes from its parent. */
  static final class OneClass extends ClassLoader {
    private final String name;
    private final byte[] bytes;

    OneClass(String name, byte[] bytes) {
      super(PluginHost.class.getClassLoader());
      this.name = name;
      this.bytes = bytes;
    }

    @Override
    protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
      if (n.equals(name)) {
        synchronized (getClassLoadingLock(n)) {
          Class<?> c = findLoadedClass(n);
          return c != null ? c : defineClass(n, bytes, 0, bytes.length);
        }
      }
      return super.loadClass(n, resolve);
    }
  }
}
