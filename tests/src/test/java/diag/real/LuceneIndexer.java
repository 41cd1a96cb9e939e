package diag.real;

import diag.Run;
import java.util.List;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * A real program nobody wrote for the benchmark: Apache Lucene (lucene-core, lucene-analysis-common) indexing
 * generated articles with its standard analyzer into an in-memory directory, committing every 5,000 documents
 * and starting a fresh index every 100,000, as a search service's indexer would. Known answer, as JFR's
 * execution samples of the same run name it: CPU-bound in Lucene's code, {@code org.apache.lucene}.
 */
public final class LuceneIndexer {
  private static final String[] WORDS = ("profiler bottleneck latency throughput garbage collector thread lock "
      + "monitor socket buffer index segment merge query token analyzer stream compile inline method class "
      + "object heap stack frame sample budget overhead search consultant hypothesis refine resource focus "
      + "metric probe agent daemon cluster member service request response cache database table row column")
      .split(" ");

  private LuceneIndexer() {}

  public static void main(String[] args) throws Exception {
    Run.workers(List.of(new Run.Worker("indexer", LuceneIndexer::index)));
  }

  private static void index() throws Exception {
    long seed = 7;
    long id = 0;
    while (Run.running()) {
      try (ByteBuffersDirectory dir = new ByteBuffersDirectory();
          IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
        for (int i = 0; i < 100_000 && Run.running(); i++) {
          StringBuilder body = new StringBuilder();
          for (int w = 0; w < 120; w++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            body.append(WORDS[(int) ((seed >>> 33) % WORDS.length)]).append(w % 13 == 12 ? ". " : " ");
          }
          Document doc = new Document();
          doc.add(new StringField("id", Long.toString(id++), Field.Store.YES));
          doc.add(new LongPoint("published", seed >>> 20));
          doc.add(new TextField("title", body.substring(0, 60), Field.Store.YES));
          doc.add(new TextField("body", body.toString(), Field.Store.NO));
          writer.addDocument(doc);
          if (i % 5_000 == 4_999) {
            writer.commit();
          }
        }
      }
    }
  }
}
