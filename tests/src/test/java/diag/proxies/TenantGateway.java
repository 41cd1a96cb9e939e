package diag.proxies;

import diag.Run;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * Planted: class loading. A gateway that, for every request, wraps the tenant's service in a dynamic proxy made in a
 * class loader of the tenant's own, created afresh for the request (a per-request isolation layer done wrongly): the
 * JDK generates and defines a new proxy class each time. Two request threads. Known answer: class_load_time (below
 * cpu_bound), at the package {@code diag.proxies} or the threads {@code request-*}. Written after class loading came
 * to be charged to the defining loader, and not looked at while anything was chosen: held out.
 */
public final class TenantGateway {
  static volatile long sink;

  /** What a tenant's service offers. */
  public interface Quote {
    long price(long item);
  }

  /** A tenant's loader: it defines nothing itself, so everything it is asked for comes from its parent. */
  static final class TenantLoader extends ClassLoader {
    TenantLoader() {
      super(TenantGateway.class.getClassLoader());
    }
  }

  public static void main(String[] args) throws Exception {
    Quote service = item -> item * 7 + 3;
    Run.workers(List.of(new Run.Worker("request-1", () -> serve(service)),
        new Run.Worker("request-2", () -> serve(service))));
  }

  static void serve(Quote service) {
    long x = 1;
    while (Run.running()) {
      x = wrap(service).price(x) & 0xffff;
      sink = x;
    }
  }

  static Quote wrap(Quote service) {
    InvocationHandler audit = (proxy, method, args) -> method.invoke(service, args);
    return (Quote) Proxy.newProxyInstance(new TenantLoader(), new Class<?>[] {Quote.class}, audit);
  }
}
