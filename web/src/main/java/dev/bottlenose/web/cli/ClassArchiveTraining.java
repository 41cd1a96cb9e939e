package dev.bottlenose.web.cli;

import dev.bottlenose.bus.Cluster;
import dev.bottlenose.cli.ClassArchive;
import dev.bottlenose.consultant.HypothesisCatalog;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.Settings;
import dev.bottlenose.consultant.rules.RuleBook;
import dev.bottlenose.daemon.attach.LocalJvms;
import dev.bottlenose.model.json.Json;
import dev.bottlenose.web.render.ShgLayout;
import dev.bottlenose.web.render.ShgView;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * The service jar's class-archive training: compiles the built-in rules, lists the local JVMs (the attach
 * mechanism a search that serves its targets itself uses), joins a cluster alone and leaves, and lays out a small
 * search-history graph (ELK's classes, which the page's first view would otherwise wait seconds for).
 */
@Command(name = ClassArchive.TRAINING_COMMAND, hidden = true, description = "make the class-data archive's training run")
final class ClassArchiveTraining extends dev.bottlenose.cli.ClassArchiveTraining {
  @ParentCommand
  Main main;

  @Override
  protected void rehearse() throws Exception {
    RuleBook.load(null);
    LocalJvms.list();
    Cluster.rehearse();
    String node = """
        {"id": %d, "hypothesis": "%s", "focus": [], "state": "true", "value": 0.9, "threshold": 0.3,
         "testedSinceMillis": 0, "concludedAtMillis": 0, "predictedCost": 0, "observedCost": 0,
         "reason": "", "along": null, "priority": 5}""";
    SearchHistoryGraph graph = SearchHistoryGraph.fromJson(Json.parse("{\"searchId\": \"training\", \"nodes\": ["
        + node.formatted(0, "top") + ", " + node.formatted(1, "cpu_bound") + "], \"edges\": [{\"from\": 0, \"to\": 1,"
        + " \"axis\": \"why\", \"along\": null, \"reason\": \"top-level\"}]}"));
    ShgLayout.of(ShgView.of(graph, HypothesisCatalog.of(Settings.defaults()), List.of(), ShgView.Options.DEFAULT)).toJson();
  }

  @Override
  protected PrintStream err() {
    return main.err;
  }
}
