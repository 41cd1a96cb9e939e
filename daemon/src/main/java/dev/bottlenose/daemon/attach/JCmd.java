package dev.bottlenose.daemon.attach;

import com.sun.tools.attach.VirtualMachine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * A diagnostic command ({@code jcmd}) sent over an open Attach API connection: HotSpot runs it in the VM, so nothing
 * is loaded into the target for it. HotSpot's {@code executeJCmd} is public, on a class of {@code jdk.attach} that
 * is not exported; the daemon's jar exports it ({@code Add-Exports} in its manifest, {@code --add-exports} from the
 * launcher).
 */
final class JCmd {
  private JCmd() {}

  /**
   * The command's output; the failure of a command the VM has not is an exception. Read as {@code jcmd} reads it, a
   * buffer at a time until the stream ends: on JDK 17 {@code readAllBytes} on this stream stopped after 4,096 bytes,
   * and the code list of a server attached to 6 s in came back with 36 of its 3,570 methods.
   */
  static String run(VirtualMachine vm, String command) throws IOException, ReflectiveOperationException {
    Method jcmd = executeJCmd(vm);
    try (InputStream in = (InputStream) jcmd.invoke(vm, command)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) > 0) {
        out.write(buffer, 0, n);
      }
      return out.toString(StandardCharsets.UTF_8);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw e;
    }
  }

  private static Method executeJCmd(VirtualMachine vm) throws NoSuchMethodException, IllegalAccessException {
    Class<?> c = vm.getClass();
    while (c != null && !c.getName().equals("sun.tools.attach.HotSpotVirtualMachine")) {
      c = c.getSuperclass();
    }
    if (c == null) {
      throw new NoSuchMethodException("not a HotSpot JVM (" + vm.getClass().getName() + ")");
    }
    if (!c.getModule().isExported(c.getPackageName(), JCmd.class.getModule())) {
      throw new IllegalAccessException("jdk.attach does not export " + c.getPackageName()
          + " to the daemon (run it with --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED)");
    }
    return c.getMethod("executeJCmd", String.class);
  }
}
