package dev.bottlenose.bus;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.internal.VertxInternal;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Who is in the cluster, and who sent a message. Every member stamps its node id on each message it sends
 * ({@link #NODE_HEADER}, added by {@link Cluster#start}); only members that hold the secret can reach the
 * event bus at all, so a request's node names an authenticated member. Membership changes come from
 * Hazelcast's failure detector: a member that dies ({@code kill -9} included) is reported as left within
 * seconds, which is how a daemon learns that the service holding it is gone and the service that a daemon is.
 */
public final class Membership {
  /** The message header with the sending member's node id. */
  public static final String NODE_HEADER = "bottlenose-node";
  /** Hazelcast's member attribute with the Vert.x node id (vertx-hazelcast's own name for it). */
  static final String NODE_ID_ATTRIBUTE = "__vertx.nodeId";

  private Membership() {}

  /** Stamps this member's node id on everything it sends, replies included. */
  static void stampOutbound(Vertx vertx) {
    String node = localNode(vertx);
    vertx.eventBus().addOutboundInterceptor(context -> {
      context.message().headers().set(NODE_HEADER, node);
      context.next();
    });
  }

  /** What stands for this process where a Vert.x is not clustered: every sender is in this process. */
  public static final String LOCAL = "local";

  /** This process's name among the senders: its member's node id, or {@link #LOCAL} on a Vert.x not clustered. */
  public static String self(Vertx vertx) {
    return vertx.isClustered() ? localNode(vertx) : LOCAL;
  }

  /** This member's node id. */
  public static String localNode(Vertx vertx) {
    return manager(vertx).getNodeId();
  }

  /** The node id of the member that sent {@code message}, or null if it names none. */
  public static String sender(Message<?> message) {
    String node = message.headers().get(NODE_HEADER);
    return node == null || node.isBlank() ? null : node;
  }

  /** Whether {@code node} is a member now. */
  public static boolean isMember(Vertx vertx, String node) {
    return manager(vertx).getNodes().contains(node);
  }

  /** Calls {@code left} with the node id of each member that leaves or dies from now on; run to stop. */
  public static Runnable onLeft(Vertx vertx, Consumer<String> left) {
    HazelcastInstance hazelcast = manager(vertx).getHazelcastInstance();
    UUID registration = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {
        // joining members announce themselves on the bus
      }

      @Override
      public void memberRemoved(MembershipEvent event) {
        String node = event.getMember().getAttribute(NODE_ID_ATTRIBUTE);
        if (node != null) {
          vertx.runOnContext(v -> left.accept(node));
        }
      }
    });
    return () -> {
      if (hazelcast.getLifecycleService().isRunning()) {
        hazelcast.getCluster().removeMembershipListener(registration);
      }
    };
  }

  private static HazelcastClusterManager manager(Vertx vertx) {
    if (vertx instanceof VertxInternal internal && internal.clusterManager() instanceof HazelcastClusterManager m) {
      return m;
    }
    throw new IllegalStateException("not a member of a Bottlenose cluster (this Vert.x is not clustered on Hazelcast)");
  }
}
