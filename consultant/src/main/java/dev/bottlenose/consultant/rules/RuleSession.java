package dev.bottlenose.consultant.rules;

import dev.bottlenose.consultant.Hypothesis;
import dev.bottlenose.consultant.ResourceChild;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.kie.api.event.rule.DefaultRuleRuntimeEventListener;
import org.kie.api.event.rule.ObjectDeletedEvent;
import org.kie.api.event.rule.ObjectInsertedEvent;
import org.kie.api.runtime.ClassObjectFilter;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.rule.FactHandle;

/**
 * One search's working memory (not API): the Java around it inserts hypotheses, nodes, evidence,
 * resource children and unavailable measurements, fires, and reads back refinements and verdicts.
 * Not thread-safe; the search calls it from one thread at a time.
 */
public final class RuleSession implements AutoCloseable {
  private final KieSession session;
  private final Map<Integer, FactHandle> nodes = new HashMap<>();
  private final Map<Integer, FactHandle> evidence = new HashMap<>();
  private final Map<Integer, FactHandle> unavailable = new HashMap<>();
  private final Map<ResourceChild, FactHandle> children = new HashMap<>();
  /** Refinements the rules have inserted or retracted so far ({@link #refinementChanges}). */
  private long refinementChanges;

  RuleSession(KieSession session) {
    this.session = session;
    session.addEventListener(new DefaultRuleRuntimeEventListener() {
      @Override
      public void objectInserted(ObjectInsertedEvent event) {
        if (event.getObject() instanceof Refinement) {
          refinementChanges++;
        }
      }

      @Override
      public void objectDeleted(ObjectDeletedEvent event) {
        if (event.getOldObject() instanceof Refinement) {
          refinementChanges++;
        }
      }
    });
  }

  /**
   * How many times a refinement has come or gone so far: while it stays the same, {@link #refinements} answers
   * the same set, and the search need not weigh them again (the rules repeat every refinement they ever proposed,
   * thousands on a large program, and a step asks for them several times).
   */
  public long refinementChanges() {
    return refinementChanges;
  }

  public void insert(Hypothesis h) {
    session.insert(h);
  }

  public void insert(CodeOnly c) {
    session.insert(c);
  }

  public void insert(Timing t) {
    session.insert(t);
  }

  /** Inserts or replaces the node with the same id. */
  public void put(NodeFact n) {
    replace(nodes, n.id(), n);
  }

  /** Inserts or replaces the evidence for its node. */
  public void put(Evidence e) {
    replace(evidence, e.nodeId(), e);
  }

  public void removeEvidence(int nodeId) {
    FactHandle h = evidence.remove(nodeId);
    if (h != null) {
      session.delete(h);
    }
  }

  public void put(Unavailable u) {
    replace(unavailable, u.nodeId(), u);
  }

  public void removeUnavailable(int nodeId) {
    FactHandle h = unavailable.remove(nodeId);
    if (h != null) {
      session.delete(h);
    }
  }

  public void add(Hint h) {
    session.insert(h);
  }

  public void add(ChildEdge e) {
    session.insert(e);
  }

  public void add(ResourceChild c) {
    if (!children.containsKey(c)) {
      children.put(c, session.insert(c));
    }
  }

  public void remove(ResourceChild c) {
    FactHandle h = children.remove(c);
    if (h != null) {
      session.delete(h);
    }
  }

  private <K> void replace(Map<K, FactHandle> handles, K key, Object fact) {
    FactHandle h = handles.get(key);
    if (h == null) {
      handles.put(key, session.insert(fact));
    } else {
      session.update(h, fact);
    }
  }

  /** Fires until nothing is left to fire; returns how many rules fired. */
  public int fire() {
    return session.fireAllRules();
  }

  public List<Refinement> refinements() {
    return facts(Refinement.class);
  }

  public List<Promising> promising() {
    return facts(Promising.class);
  }

  public List<Verdict> verdicts() {
    return facts(Verdict.class);
  }

  <T> List<T> facts(Class<T> type) {
    List<T> list = new ArrayList<>();
    // a ClassObjectFilter walks only the facts of that class (the store keeps them apart), not every fact
    for (Object o : session.getObjects(new ClassObjectFilter(type))) {
      list.add(type.cast(o));
    }
    return list;
  }

  @Override
  public void close() {
    session.dispose();
  }
}
