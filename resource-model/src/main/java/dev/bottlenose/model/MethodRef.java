package dev.bottlenose.model;

/**
 * A method by JVM names: binary class name with dots ({@code com.acme.Sim$Inner}), method name
 * ({@code step}, {@code <init>}, {@code <clinit>}, {@code lambda$run$0}) and JVM descriptor
 * ({@code (Ljava/lang/String;)V}); a null descriptor stands for every overload of the name.
 */
public record MethodRef(String className, String methodName, String descriptor) {

  /** The class name in internal form, {@code com/acme/Sim$Inner}. */
  public String internalClassName() {
    return className.replace('.', '/');
  }

  /** The {@code /Code} path of this method: package / class / method[descriptor]. */
  public ResourcePath toPath() {
    return CodePaths.method(className, methodName, descriptor);
  }

  /** The method named by a {@code /Code} path of depth 3 (a form segment below it is ignored). */
  public static MethodRef fromPath(ResourcePath path) {
    return CodePaths.methodRef(path);
  }
}
