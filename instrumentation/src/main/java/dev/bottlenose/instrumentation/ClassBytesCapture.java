package dev.bottlenose.instrumentation;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/** Registered last for one retransformation: keeps the bytes the earlier transformers produced. */
final class ClassBytesCapture implements ClassFileTransformer {
  private final Class<?> target;
  byte[] bytes;

  ClassBytesCapture(Class<?> target) {
    this.target = target;
  }

  @Override
  public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classfileBuffer) {
    if (classBeingRedefined == target) {
      bytes = classfileBuffer.clone();
    }
    return null;
  }
}
