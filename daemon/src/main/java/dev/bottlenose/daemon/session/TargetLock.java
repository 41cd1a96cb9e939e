package dev.bottlenose.daemon.session;

import dev.bottlenose.bus.PrivateDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One daemon per target: a lock on {@code ~/.bottlenose/run/daemon-<pid>.lock} held while the daemon serves
 * that pid. The operating system drops the lock when the daemon's process ends, however it ends; a second
 * daemon for the same target fails at once, naming the file, instead of attaching a second agent session
 * whose measurements would mix with the first's. The (empty) file stays: deleting it would let a daemon that
 * opened it just before lock a file nobody else can see.
 */
public final class TargetLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private TargetLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Locks {@code pid} for this process; fails with a message naming the lock file if another process has it. */
  public static TargetLock acquire(PrivateDirectory run, long pid) {
    TargetLock lock = tryAcquire(run, pid);
    if (lock == null) {
      throw new IllegalStateException("process " + pid + " is already served by another daemon (it holds " + file(run, pid)
          + "); use that daemon, or stop it first");
    }
    return lock;
  }

  /** Locks {@code pid} for this process; null when another process has it (a daemon serves {@code pid} already). */
  public static TargetLock tryAcquire(PrivateDirectory run, long pid) {
    Path file = file(run, pid);
    try {
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (java.nio.channels.OverlappingFileLockException heldHere) {
        lock = null;
      }
      if (lock == null) {
        channel.close();
        return null;
      }
      return new TargetLock(channel, lock);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lock " + file + ": " + e.getMessage(), e);
    }
  }

  private static Path file(PrivateDirectory run, long pid) {
    return run.path().resolve("daemon-" + pid + ".lock");
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      // the lock goes with the process anyway
    }
  }
}
